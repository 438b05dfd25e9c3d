import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.ToolInterruptedError');

/**
 * A tool call was cut short (its process died mid-call) and its tool is not declared idempotent,
 * so a resumed run does not execute it again: the model receives this error as the call's response
 * (`{ error: { code: 'TOOL_INTERRUPTED', message } }`) and decides what to do.
 */
export class ToolInterruptedError extends AdkError {
  private readonly [MARKER] = true;
  readonly toolName: string;

  constructor(options: { toolName: string }) {
    super('ToolInterruptedError', 'TOOL_INTERRUPTED', {
      message: `The call of tool "${options.toolName}" was interrupted before it answered and was not run again (the tool is not declared idempotent); it may or may not have taken effect.`,
    });
    this.toolName = options.toolName;
  }

  static override isInstance(error: unknown): error is ToolInterruptedError {
    return AdkError.hasMarker(error, MARKER);
  }
}
