import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.CircuitOpenError');

/**
 * The circuit breaker of this model is open after repeated failures: the call was refused at once,
 * without touching the network. It will let one probe call through at `retryAt`.
 */
export class CircuitOpenError extends AdkError {
  private readonly [MARKER] = true;
  readonly provider: string;
  readonly model: string;
  /** Epoch milliseconds after which one probe call is allowed. */
  readonly retryAt: number;
  readonly retryable = true;

  constructor(options: { provider: string; model: string; retryAt: number; probing: boolean }) {
    const when = options.probing
      ? 'a probe call is in flight'
      : `retry after ${new Date(options.retryAt).toISOString()}`;
    super('CircuitOpenError', 'CIRCUIT_OPEN', {
      message: `Circuit breaker for ${options.provider} model "${options.model}" is open after repeated failures; ${when}`,
    });
    this.provider = options.provider;
    this.model = options.model;
    this.retryAt = options.retryAt;
  }

  static override isInstance(error: unknown): error is CircuitOpenError {
    return AdkError.hasMarker(error, MARKER);
  }
}
