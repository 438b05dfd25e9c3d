import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.InvalidArgumentError');

/** A caller passed a value that breaks a documented precondition of an ADK API. */
export class InvalidArgumentError extends AdkError {
  private readonly [MARKER] = true;
  /** Name of the offending argument or field, when known. */
  readonly argument: string | undefined;

  constructor(options: { message: string; argument?: string; cause?: unknown }) {
    super('InvalidArgumentError', 'INVALID_ARGUMENT', options);
    this.argument = options.argument;
  }

  static override isInstance(error: unknown): error is InvalidArgumentError {
    return AdkError.hasMarker(error, MARKER);
  }
}
