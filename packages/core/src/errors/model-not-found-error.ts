import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.ModelNotFoundError');

/** No registered model provider serves the requested model name. The message lists the registered patterns. */
export class ModelNotFoundError extends AdkError {
  private readonly [MARKER] = true;
  readonly modelName: string;
  readonly registeredPatterns: string[];

  constructor(options: {
    modelName: string;
    registeredPatterns: string[];
    message?: string;
    cause?: unknown;
  }) {
    super('ModelNotFoundError', 'MODEL_NOT_FOUND', {
      message:
        options.message ??
        `No model provider is registered for "${options.modelName}". Registered patterns: ${
          options.registeredPatterns.length ? options.registeredPatterns.join(', ') : '(none)'
        }. Register a provider (e.g. \`registry.register(createGemini())\`) or pass a Model instance.`,
      cause: options.cause,
    });
    this.modelName = options.modelName;
    this.registeredPatterns = options.registeredPatterns;
  }

  static override isInstance(error: unknown): error is ModelNotFoundError {
    return AdkError.hasMarker(error, MARKER);
  }
}
