import { AdkError } from '../errors/adk-error';

const MARKER = Symbol.for('adk.error.FakeModelError');

/** A strict `FakeModel` was called more often than scripted, or not as often as scripted. */
export class FakeModelError extends AdkError {
  private readonly [MARKER] = true;
  /** `unexpected-call` or `unconsumed-responses`. */
  readonly reason: 'unexpected-call' | 'unconsumed-responses';

  constructor(options: { reason: 'unexpected-call' | 'unconsumed-responses'; message: string }) {
    super('FakeModelError', 'FAKE_MODEL_ERROR', { message: options.message });
    this.reason = options.reason;
  }

  static override isInstance(error: unknown): error is FakeModelError {
    return AdkError.hasMarker(error, MARKER);
  }
}
