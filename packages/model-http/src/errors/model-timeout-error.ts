import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.ModelTimeoutError');

/**
 * A model call took longer than its timeout: no response within `timeoutMs`, or a stream stayed
 * silent longer than `streamIdleTimeoutMs`. Retryable.
 */
export class ModelTimeoutError extends AdkError {
  private readonly [MARKER] = true;
  readonly provider: string;
  readonly model: string;
  /** The limit that was exceeded, in milliseconds. */
  readonly timeoutMs: number;
  /** `response` (waiting for the response) or `stream-idle` (silence inside a stream). */
  readonly phase: 'response' | 'stream-idle';
  readonly retryable = true;

  constructor(options: {
    provider: string;
    model: string;
    timeoutMs: number;
    phase: 'response' | 'stream-idle';
  }) {
    const what =
      options.phase === 'response' ? 'no response arrived' : 'the response stream stayed silent';
    super('ModelTimeoutError', 'MODEL_TIMEOUT', {
      message: `${options.provider} model "${options.model}" timed out: ${what} for ${options.timeoutMs} ms`,
    });
    this.provider = options.provider;
    this.model = options.model;
    this.timeoutMs = options.timeoutMs;
    this.phase = options.phase;
  }

  static override isInstance(error: unknown): error is ModelTimeoutError {
    return AdkError.hasMarker(error, MARKER);
  }
}
