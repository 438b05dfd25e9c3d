import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.McpInvalidArgumentsError');

/** The MCP server refused the arguments of a call (they do not match the tool's input schema). */
export class McpInvalidArgumentsError extends AdkError {
  private readonly [MARKER] = true;
  readonly serverName: string;
  readonly toolName: string;

  constructor(options: { serverName: string; toolName: string; detail: string; cause?: unknown }) {
    super('McpInvalidArgumentsError', 'MCP_INVALID_ARGUMENTS', {
      message: `MCP server "${options.serverName}" refused the arguments of "${options.toolName}": ${options.detail}`,
      cause: options.cause,
    });
    this.serverName = options.serverName;
    this.toolName = options.toolName;
  }

  static override isInstance(error: unknown): error is McpInvalidArgumentsError {
    return AdkError.hasMarker(error, MARKER);
  }
}
