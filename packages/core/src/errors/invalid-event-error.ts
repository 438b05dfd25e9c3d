import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.InvalidEventError');

/** A value parsed as an event (from JSON, a database row or an HTTP body) is not a valid event. `field` names the first offending field. */
export class InvalidEventError extends AdkError {
  private readonly [MARKER] = true;
  readonly field: string;

  constructor(options: { field: string; message: string; cause?: unknown }) {
    super('InvalidEventError', 'INVALID_EVENT', {
      message: `Invalid event at "${options.field}": ${options.message}`,
      cause: options.cause,
    });
    this.field = options.field;
  }

  static override isInstance(error: unknown): error is InvalidEventError {
    return AdkError.hasMarker(error, MARKER);
  }
}
