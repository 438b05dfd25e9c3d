import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.MemoryExtractionError');

/**
 * The extraction model's answer is not the JSON the extractor asked for (no JSON object, or
 * operations of an unknown shape). Nothing was changed in memory; `answer` holds what the model
 * said (truncated to 2,000 characters).
 */
export class MemoryExtractionError extends AdkError {
  private readonly [MARKER] = true;
  readonly answer: string;

  constructor(options: { message: string; answer: string; cause?: unknown }) {
    super('MemoryExtractionError', 'MEMORY_EXTRACTION_FAILED', {
      message: `memory extraction: ${options.message}`,
      cause: options.cause,
    });
    this.answer = options.answer.slice(0, 2000);
  }

  static override isInstance(error: unknown): error is MemoryExtractionError {
    return AdkError.hasMarker(error, MARKER);
  }
}
