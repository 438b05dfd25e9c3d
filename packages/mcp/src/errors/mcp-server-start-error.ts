import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.McpServerStartError');

/** The MCP server could not be started or reached: the command was not found, the process exited before the handshake, or the URL did not answer. `stderr` holds the end of what a stdio server printed. */
export class McpServerStartError extends AdkError {
  private readonly [MARKER] = true;
  /** Name of the server (the toolset's name). */
  readonly serverName: string;
  /** The last lines a stdio server wrote to stderr (empty for HTTP servers). */
  readonly stderr: string;

  constructor(options: { serverName: string; reason: string; stderr?: string; cause?: unknown }) {
    const stderr = options.stderr?.trim() ?? '';
    super('McpServerStartError', 'MCP_SERVER_START_FAILED', {
      message: `MCP server "${options.serverName}" failed to start: ${options.reason}${
        stderr ? `\nServer stderr:\n${stderr}` : ''
      }`,
      cause: options.cause,
    });
    this.serverName = options.serverName;
    this.stderr = stderr;
  }

  static override isInstance(error: unknown): error is McpServerStartError {
    return AdkError.hasMarker(error, MARKER);
  }
}
