import { AdkError } from '../errors/adk-error';

const MARKER = Symbol.for('adk.error.FakeModelError');

/** A strict `FakeModel` was called more often than scripted, or not as often as scripted. */
export class FakeModelError extends AdkError {
  private readonly [MARKER] = true;
  /** `unexpected-call`, `unconsumed-responses`, or `unsupported-call` (a turn-based call to a `FakeLiveModel`). */
  readonly reason: 'unexpected-call' | 'unconsumed-responses' | 'unsupported-call';

  constructor(options: {
    reason: 'unexpected-call' | 'unconsumed-responses' | 'unsupported-call';
    message: string;
  }) {
    super('FakeModelError', 'FAKE_MODEL_ERROR', { message: options.message });
    this.reason = options.reason;
  }

  static override isInstance(error: unknown): error is FakeModelError {
    return AdkError.hasMarker(error, MARKER);
  }
}
