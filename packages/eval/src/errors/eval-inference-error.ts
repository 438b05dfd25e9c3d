import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.EvalInferenceError');

/**
 * The agent of an eval case could not be run to an answer because a model call failed (a replay
 * miss, a missing API key, a provider error): the case is reported with this error, never scored,
 * since a score would grade the failure rather than the agent.
 */
export class EvalInferenceError extends AdkError {
  private readonly [MARKER] = true;
  /** The failed call's error code (`REPLAY_MISS`, `MODEL_ERROR`...). */
  readonly failureCode: string;

  constructor(options: { failureCode: string; message: string; cause?: unknown }) {
    super('EvalInferenceError', 'EVAL_INFERENCE_FAILED', {
      message: `A model call failed (${options.failureCode}): ${options.message}`,
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.failureCode = options.failureCode;
  }

  static override isInstance(error: unknown): error is EvalInferenceError {
    return AdkError.hasMarker(error, MARKER);
  }
}
