import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.InvalidCronExpressionError');

/** A cron expression is not a valid standard 5-field expression; says why (croner's reason). */
export class InvalidCronExpressionError extends AdkError {
  private readonly [MARKER] = true;
  /** The expression as given. */
  readonly expression: string;

  constructor(options: { expression: string; reason: string; cause?: unknown }) {
    super('InvalidCronExpressionError', 'INVALID_CRON_EXPRESSION', {
      message: `Invalid cron expression "${options.expression}": ${options.reason}`,
      cause: options.cause,
    });
    this.expression = options.expression;
  }

  static override isInstance(error: unknown): error is InvalidCronExpressionError {
    return AdkError.hasMarker(error, MARKER);
  }
}
