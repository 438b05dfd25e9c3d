import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.McpRequestError');

/** Any other failure an MCP server reported for a request (a JSON-RPC error), or a call aborted by the run. */
export class McpRequestError extends AdkError {
  private readonly [MARKER] = true;
  readonly serverName: string;
  /** The JSON-RPC error code, when the server sent one. */
  readonly rpcCode: number | undefined;

  constructor(options: {
    serverName: string;
    operation: string;
    detail: string;
    rpcCode?: number;
    cause?: unknown;
  }) {
    super('McpRequestError', 'MCP_REQUEST_FAILED', {
      message: `${options.operation} on MCP server "${options.serverName}" failed: ${options.detail}`,
      cause: options.cause,
    });
    this.serverName = options.serverName;
    this.rpcCode = options.rpcCode;
  }

  static override isInstance(error: unknown): error is McpRequestError {
    return AdkError.hasMarker(error, MARKER);
  }
}
