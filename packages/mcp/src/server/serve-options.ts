import type {
  ArtifactService,
  BaseAgent,
  MemoryService,
  Runner,
  SessionService,
  Tool,
} from '@adk/core';

/** What to expose: an agent (one tool taking a message), a Runner of an agent, or ADK tools. */
export type McpServeTarget = BaseAgent | Runner | readonly Tool[];

/** Options shared by every transport of {@link serveAsMcp}. */
export interface McpServeCommonOptions {
  /** Server name announced in the handshake (default: the agent's name, or `adk-tools`). */
  name?: string;
  /** Server version announced in the handshake (default `0.1.0`). */
  version?: string;
  /**
   * Where the sessions of the agent (or the state written by tools) live. Ignored when the target
   * is a `Runner` (its own service is used). Default: a new `InMemorySessionService`.
   */
  sessionService?: SessionService;
  artifactService?: ArtifactService;
  memoryService?: MemoryService;
  /** App name of the sessions (default: the agent's name, or `mcp`). */
  appName?: string;
  /** User id of the sessions (default `mcp-user`). */
  userId?: string;
}

/** Serve over this process's stdin and stdout (what Claude Desktop and MCP Inspector launch). */
export interface McpServeStdioOptions extends McpServeCommonOptions {
  transport: 'stdio';
}

/** Serve over Streamable HTTP on a local port. */
export interface McpServeHttpOptions extends McpServeCommonOptions {
  transport: 'streamable-http';
  /** Port (default 0: a free one; read it from the returned `url`). */
  port?: number;
  /** Interface (default `127.0.0.1`). */
  host?: string;
  /** Path of the MCP endpoint (default `/mcp`). */
  path?: string;
  /**
   * An MCP session unused for this long is closed (default 30 minutes); its ADK session stays in
   * the session service. A client that comes back after that gets a 404 and starts a new session.
   */
  sessionIdleMs?: number;
}

/** Options of {@link serveAsMcp}. */
export type McpServeOptions = McpServeStdioOptions | McpServeHttpOptions;

/** A running MCP server. */
export interface McpServing {
  /** The endpoint URL (Streamable HTTP only). */
  readonly url: string | undefined;
  /** Stop serving: close every MCP session (and the HTTP listener). */
  close(): Promise<void>;
}
