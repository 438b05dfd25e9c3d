import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.ToolNotFoundError');

/** A model called a tool the agent does not have. */
export class ToolNotFoundError extends AdkError {
  private readonly [MARKER] = true;
  readonly toolName: string;
  readonly availableTools: string[];

  constructor(options: { toolName: string; availableTools: string[]; cause?: unknown }) {
    super('ToolNotFoundError', 'TOOL_NOT_FOUND', {
      message: `Tool "${options.toolName}" is not available. Available tools: ${
        options.availableTools.length ? options.availableTools.join(', ') : '(none)'
      }.`,
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.availableTools = options.availableTools;
  }

  static override isInstance(error: unknown): error is ToolNotFoundError {
    return AdkError.hasMarker(error, MARKER);
  }
}
