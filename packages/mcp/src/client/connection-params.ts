import type { ReadonlyContext } from '@adk/core';

/** Headers sent with every HTTP request, or computed per request from the run's context. */
export type McpHeaders =
  | Record<string, string>
  | ((
      context: ReadonlyContext | undefined,
    ) => Record<string, string> | Promise<Record<string, string>>);

/** A local server started as a child process, spoken to over its stdin and stdout. */
export interface StdioConnectionParams {
  transport: 'stdio';
  /** The executable, e.g. `npx` or `node`. */
  command: string;
  args?: string[];
  /**
   * Environment of the child. Merged over the SDK's safe default environment (`PATH`, `HOME`...),
   * never over the whole of `process.env`, so secrets of this process do not leak to the server.
   */
  env?: Record<string, string>;
  cwd?: string;
}

/** A remote server over Streamable HTTP (the current MCP transport). */
export interface StreamableHttpConnectionParams {
  transport: 'streamable-http';
  url: string | URL;
  /** Static headers, or a function called before each request with the calling run's context. */
  headers?: McpHeaders;
}

/** A remote server over the legacy HTTP+SSE transport (MCP 2024-11-05). */
export interface SseConnectionParams {
  transport: 'sse';
  url: string | URL;
  /** Static headers, or a function called before each request with the calling run's context. */
  headers?: McpHeaders;
}

/** How to reach an MCP server. */
export type McpConnectionParams =
  StdioConnectionParams | StreamableHttpConnectionParams | SseConnectionParams;
