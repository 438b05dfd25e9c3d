import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.McpToolNotFoundError');

/** The MCP server does not know the tool that was called (it may have been removed since the list was read). */
export class McpToolNotFoundError extends AdkError {
  private readonly [MARKER] = true;
  readonly serverName: string;
  readonly toolName: string;

  constructor(options: { serverName: string; toolName: string; cause?: unknown }) {
    super('McpToolNotFoundError', 'MCP_TOOL_NOT_FOUND', {
      message: `MCP server "${options.serverName}" has no tool "${options.toolName}".`,
      cause: options.cause,
    });
    this.serverName = options.serverName;
    this.toolName = options.toolName;
  }

  static override isInstance(error: unknown): error is McpToolNotFoundError {
    return AdkError.hasMarker(error, MARKER);
  }
}
