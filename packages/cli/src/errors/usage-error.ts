import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.UsageError');

/** The command line is wrong (unknown command or option, missing argument). */
export class UsageError extends AdkError {
  private readonly [MARKER] = true;

  constructor(message: string) {
    super('UsageError', 'USAGE', { message });
  }

  static override isInstance(error: unknown): error is UsageError {
    return AdkError.hasMarker(error, MARKER);
  }
}
