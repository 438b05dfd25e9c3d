import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.ContextCompressionError');

/** A context compressor could not compact the history (for example its summarising model failed). */
export class ContextCompressionError extends AdkError {
  private readonly [MARKER] = true;
  /** Name of the compressor that failed. */
  readonly compressor: string;

  constructor(options: { compressor: string; message: string; cause?: unknown }) {
    super('ContextCompressionError', 'CONTEXT_COMPRESSION_FAILED', {
      message: `Context compressor "${options.compressor}" failed: ${options.message}`,
      cause: options.cause,
    });
    this.compressor = options.compressor;
  }

  static override isInstance(error: unknown): error is ContextCompressionError {
    return AdkError.hasMarker(error, MARKER);
  }
}
