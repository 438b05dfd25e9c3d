import { Cron } from 'croner';

import { InvalidCronExpressionError } from '../errors/invalid-cron-expression-error';

const MINUTE = 60_000;

/** Vixie cron's macros, as 5-field expressions. */
const MACROS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/**
 * A standard 5-field cron expression (`minute hour day-of-month month day-of-week`), evaluated in
 * UTC by [croner](https://croner.56k.guru). Fields accept `*`, numbers, ranges `a-b`, steps `*\/n`
 * and `a-b/n`, lists `a,b`, month and weekday names (`JAN`, `MON`), and 7 for Sunday; the macros
 * `@hourly`, `@daily`, `@weekly`, `@monthly`, `@yearly` are accepted. As in Vixie cron, when both
 * day-of-month and day-of-week are restricted a day matches either.
 *
 * This class only checks that the expression has 5 fields (minute precision, which the occurrence
 * keys of `CronScheduler` rely on) and wraps croner's errors in {@link InvalidCronExpressionError}.
 *
 * @example
 * ```ts
 * const cron = CronExpression.parse('30 9 * * MON-FRI');
 * cron.next(Date.UTC(2026, 0, 2, 10)); // Date.UTC(2026, 0, 5, 9, 30): Monday 09:30 UTC
 * ```
 */
export class CronExpression {
  /** The expression as given. */
  readonly source: string;
  readonly #cron: Cron;

  private constructor(source: string, cron: Cron) {
    this.source = source;
    this.#cron = cron;
  }

  /** Parse `expression`. @throws InvalidCronExpressionError saying what is wrong. */
  static parse(expression: string): CronExpression {
    if (typeof expression !== 'string')
      throw new InvalidCronExpressionError({
        expression: String(expression),
        reason: 'not a string',
      });
    const trimmed = expression.trim();
    const expanded = MACROS[trimmed.toLowerCase()] ?? trimmed;
    const fields = expanded.split(/\s+/).length;
    if (fields !== 5)
      throw new InvalidCronExpressionError({
        expression,
        reason: `expected 5 fields (minute hour day-of-month month day-of-week), got ${fields}`,
      });
    let cron: Cron;
    try {
      cron = new Cron(expanded, {
        timezone: 'UTC',
        mode: '5-part',
        paused: true,
        sloppyRanges: true,
      });
    } catch (error) {
      throw new InvalidCronExpressionError({
        expression,
        reason: error instanceof Error ? error.message : String(error),
        cause: error,
      });
    }
    const parsed = new CronExpression(expression, cron);
    // croner accepts combinations that never occur (`0 0 30 2 *`): refuse them here.
    if (cron.nextRun(new Date(0)) === null)
      throw new InvalidCronExpressionError({ expression, reason: 'the expression never occurs' });
    return parsed;
  }

  /** The first occurrence strictly after `time` (ms since the epoch), on a whole minute. */
  next(time: number): number {
    // croner works in whole seconds: start from the last second of `time`'s minute.
    const from = new Date(Math.floor(time / MINUTE) * MINUTE + MINUTE - 1000);
    const next = this.#cron.nextRun(from);
    if (next === null)
      throw new InvalidCronExpressionError({
        expression: this.source,
        reason: 'no next occurrence',
      });
    return next.getTime();
  }

  /** The latest occurrence at or before `time` (ms since the epoch). */
  previous(time: number): number {
    // previousRuns includes a run earlier in the reference's second: reference = the minute's end.
    const reference = new Date(Math.floor(time / MINUTE) * MINUTE + 1000);
    const [previous] = this.#cron.previousRuns(1, reference);
    if (previous === undefined)
      throw new InvalidCronExpressionError({
        expression: this.source,
        reason: 'no previous occurrence',
      });
    return previous.getTime();
  }
}
