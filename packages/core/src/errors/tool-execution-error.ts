import { AdkError } from './adk-error';
import { describeCause } from './describe-cause';

const MARKER = Symbol.for('adk.error.ToolExecutionError');

/** A tool threw while running. `cause` holds what it threw. */
export class ToolExecutionError extends AdkError {
  private readonly [MARKER] = true;
  readonly toolName: string;

  constructor(options: { toolName: string; cause?: unknown }) {
    super('ToolExecutionError', 'TOOL_EXECUTION_FAILED', {
      message: `Tool "${options.toolName}" failed: ${describeCause(options.cause)}`,
      cause: options.cause,
    });
    this.toolName = options.toolName;
  }

  static override isInstance(error: unknown): error is ToolExecutionError {
    return AdkError.hasMarker(error, MARKER);
  }
}
