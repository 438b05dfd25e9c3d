import type { ReadonlyContext, ToolContext } from '../context';
import type { FunctionDeclaration, LlmRequest } from '../models/llm-request';

/**
 * The tool contract. `FunctionTool` covers most needs; implement this directly for tools whose
 * declaration is computed or that change the request (`processRequest`).
 */
export interface Tool {
  readonly name: string;
  readonly description: string;
  /**
   * A long-running tool starts work and returns at once (or returns nothing: `undefined` or
   * `null`, Python's `None`, means no result yet); the invocation ends waiting, and a later
   * message carrying a function response with the same id resumes it.
   */
  readonly isLongRunning?: boolean;
  /**
   * Most milliseconds one call may run (`0` or `Infinity`: no limit). Unset: the agent's
   * `toolTimeoutMs`, else the run's `RunConfig.toolTimeoutMs`, else 5 minutes
   * (`DEFAULT_TOOL_TIMEOUT_MS`). A call that runs longer has its `context.signal` aborted and
   * answers the model with `{ error: { code: 'TOOL_TIMEOUT', message } }`; the run goes on.
   */
  readonly timeoutMs?: number | undefined;
  /**
   * Extra attributes of this tool's spans (e.g. `mcp.server.name` on an MCP tool), published on
   * the tool-call start message for telemetry. Keys should be namespaced.
   */
  readonly telemetryAttributes?: Readonly<Record<string, string | number | boolean>>;
  /**
   * True when running a call twice has the effect of running it once (a read, an upsert by key).
   * A run resumed after its process died re-executes an interrupted call of an idempotent tool;
   * any other tool's interrupted call is answered with a `TOOL_INTERRUPTED` error instead.
   * Default false.
   */
  readonly isIdempotent?: boolean;
  /** How the model sees the tool; `undefined` for tools that only change the request. */
  declaration(): FunctionDeclaration | undefined;
  /**
   * Execute the call. The returned value becomes the function response (objects as they are,
   * anything else wrapped as `{ result }`). Throwing turns into an error response the model sees.
   */
  run(args: Record<string, unknown>, context: ToolContext): Promise<unknown>;
  /** Optional hook to adjust the request before it is sent (add instructions, config...). */
  processRequest?(context: ReadonlyContext, request: LlmRequest): void | Promise<void>;
}

/** A dynamic source of tools, resolved before every model call. */
export interface Toolset {
  readonly name: string;
  getTools(context: ReadonlyContext): Promise<Tool[]>;
  /** Release resources (connections, processes) when the runner closes. */
  close?(): Promise<void>;
}
