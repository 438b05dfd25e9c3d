import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.ToolTimeoutError');

/**
 * A tool call ran longer than its timeout (`Tool.timeoutMs`, else the agent's or the run's
 * `toolTimeoutMs`, else 5 minutes). The call's `signal` was aborted with this error as its reason,
 * the model got `{ error: { code: 'TOOL_TIMEOUT', message } }` as the call's response, and the run
 * went on; whatever the tool returns later is dropped.
 */
export class ToolTimeoutError extends AdkError {
  private readonly [MARKER] = true;
  readonly toolName: string;
  /** The timeout that elapsed, in milliseconds. */
  readonly timeoutMs: number;

  constructor(options: { toolName: string; timeoutMs: number }) {
    super('ToolTimeoutError', 'TOOL_TIMEOUT', {
      message: `Tool "${options.toolName}" did not finish within ${options.timeoutMs} ms and was stopped.`,
    });
    this.toolName = options.toolName;
    this.timeoutMs = options.timeoutMs;
  }

  static override isInstance(error: unknown): error is ToolTimeoutError {
    return AdkError.hasMarker(error, MARKER);
  }
}
