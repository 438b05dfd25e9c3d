import { AdkError } from '../../errors/adk-error';

const MARKER = Symbol.for('adk.error.EmbeddingDimensionMismatchError');

/**
 * A vector's length is not the one expected: a store created for vectors of one length given
 * another, or a model that declares `dimensions` returning something else. Change the store's
 * dimensions (and re-embed) or the model's settings; the data was not touched.
 */
export class EmbeddingDimensionMismatchError extends AdkError {
  private readonly [MARKER] = true;
  /** The length expected. */
  readonly expected: number;
  /** The length received. */
  readonly actual: number;
  /** The embedding model involved, when known. */
  readonly model: string | undefined;

  constructor(options: { expected: number; actual: number; model?: string; context?: string }) {
    const of = options.model ? ` from model "${options.model}"` : '';
    const where = options.context ? ` (${options.context})` : '';
    super('EmbeddingDimensionMismatchError', 'EMBEDDING_DIMENSION_MISMATCH', {
      message: `expected vectors of ${options.expected} dimensions, got ${options.actual}${of}${where}`,
    });
    this.expected = options.expected;
    this.actual = options.actual;
    this.model = options.model;
  }

  static override isInstance(error: unknown): error is EmbeddingDimensionMismatchError {
    return AdkError.hasMarker(error, MARKER);
  }
}
