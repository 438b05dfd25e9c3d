import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.McpTransportClosedError');

/** The connection to the MCP server closed while a request was in flight (the server crashed or the network dropped). Whether the call took effect is unknown, so it is not retried; the next call reconnects. */
export class McpTransportClosedError extends AdkError {
  private readonly [MARKER] = true;
  readonly serverName: string;

  constructor(options: { serverName: string; operation: string; cause?: unknown }) {
    super('McpTransportClosedError', 'MCP_TRANSPORT_CLOSED', {
      message: `The connection to MCP server "${options.serverName}" closed during ${options.operation}.`,
      cause: options.cause,
    });
    this.serverName = options.serverName;
  }

  static override isInstance(error: unknown): error is McpTransportClosedError {
    return AdkError.hasMarker(error, MARKER);
  }
}
