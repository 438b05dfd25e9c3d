import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.McpProtocolVersionError');

/** The MCP server answered the handshake with a protocol version this client does not support. */
export class McpProtocolVersionError extends AdkError {
  private readonly [MARKER] = true;
  readonly serverName: string;

  constructor(options: { serverName: string; cause?: unknown }) {
    super('McpProtocolVersionError', 'MCP_PROTOCOL_VERSION_MISMATCH', {
      message: `MCP server "${options.serverName}" speaks a protocol version this client does not support${
        options.cause instanceof Error ? ` (${options.cause.message})` : ''
      }.`,
      cause: options.cause,
    });
    this.serverName = options.serverName;
  }

  static override isInstance(error: unknown): error is McpProtocolVersionError {
    return AdkError.hasMarker(error, MARKER);
  }
}
