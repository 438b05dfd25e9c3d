import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.MaxLlmCallsExceededError');

/** The invocation reached `RunConfig.maxLlmCalls` model calls (counted across every agent of the invocation). */
export class MaxLlmCallsExceededError extends AdkError {
  private readonly [MARKER] = true;
  readonly limit: number;

  constructor(options: { limit: number; cause?: unknown }) {
    super('MaxLlmCallsExceededError', 'MAX_LLM_CALLS_EXCEEDED', {
      message: `The invocation exceeded the limit of ${options.limit} model calls (RunConfig.maxLlmCalls).`,
      cause: options.cause,
    });
    this.limit = options.limit;
  }

  static override isInstance(error: unknown): error is MaxLlmCallsExceededError {
    return AdkError.hasMarker(error, MARKER);
  }
}
