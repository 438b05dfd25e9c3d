import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.McpTimeoutError');

/** An MCP request took longer than its timeout; it was cancelled with the protocol's cancellation notification. */
export class McpTimeoutError extends AdkError {
  private readonly [MARKER] = true;
  readonly serverName: string;
  readonly timeoutMs: number;

  constructor(options: {
    serverName: string;
    operation: string;
    timeoutMs: number;
    cause?: unknown;
  }) {
    super('McpTimeoutError', 'MCP_TIMEOUT', {
      message: `${options.operation} on MCP server "${options.serverName}" timed out after ${options.timeoutMs} ms and was cancelled.`,
      cause: options.cause,
    });
    this.serverName = options.serverName;
    this.timeoutMs = options.timeoutMs;
  }

  static override isInstance(error: unknown): error is McpTimeoutError {
    return AdkError.hasMarker(error, MARKER);
  }
}
