import { AdkError } from '../../errors/adk-error';

const MARKER = Symbol.for('adk.error.InvalidEmbeddingResponseError');

/**
 * An embedding provider answered successfully but not with what was asked: another number of
 * vectors than values, vectors of unequal or unexpected length, or values that are not finite
 * numbers. Not retryable: the same call would get the same answer.
 */
export class InvalidEmbeddingResponseError extends AdkError {
  private readonly [MARKER] = true;
  /** The embedding model's name. */
  readonly model: string;

  constructor(options: { model: string; message: string; cause?: unknown }) {
    super('InvalidEmbeddingResponseError', 'INVALID_EMBEDDING_RESPONSE', {
      message: `embedding model "${options.model}": ${options.message}`,
      cause: options.cause,
    });
    this.model = options.model;
  }

  static override isInstance(error: unknown): error is InvalidEmbeddingResponseError {
    return AdkError.hasMarker(error, MARKER);
  }
}
