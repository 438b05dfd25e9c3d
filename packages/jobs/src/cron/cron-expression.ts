import { InvalidCronExpressionError } from '../errors/invalid-cron-expression-error';

const MINUTE = 60_000;
/** Search bound: no standard expression needs more steps than this to find its next time. */
const MAX_STEPS = 200_000;

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const FIELDS: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'],
  },
  // 7 is also Sunday.
  { name: 'day of week', min: 0, max: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
];

const MACROS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A standard 5-field cron expression (`minute hour day-of-month month day-of-week`), evaluated in
 * UTC. Fields accept `*`, numbers, ranges `a-b`, steps `*\/n` and `a-b/n` and `a/n`, lists `a,b`,
 * month and weekday names (`JAN`, `MON`), and 7 for Sunday; the macros `@hourly`, `@daily`,
 * `@weekly`, `@monthly`, `@yearly` are accepted. As in Vixie cron, when both day-of-month and
 * day-of-week are restricted a day matches either.
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
  readonly #minutes: boolean[];
  readonly #hours: boolean[];
  readonly #daysOfMonth: boolean[];
  readonly #months: boolean[];
  readonly #daysOfWeek: boolean[];
  readonly #dayOfMonthAny: boolean;
  readonly #dayOfWeekAny: boolean;

  private constructor(source: string, fields: boolean[][], any: boolean[]) {
    this.source = source;
    [this.#minutes, this.#hours, this.#daysOfMonth, this.#months, this.#daysOfWeek] = fields as [
      boolean[],
      boolean[],
      boolean[],
      boolean[],
      boolean[],
    ];
    if (this.#daysOfWeek[7]) this.#daysOfWeek[0] = true;
    this.#dayOfMonthAny = any[2]!;
    this.#dayOfWeekAny = any[4]!;
  }

  /** Parse `expression`. @throws InvalidCronExpressionError naming the field at fault. */
  static parse(expression: string): CronExpression {
    if (typeof expression !== 'string')
      throw new InvalidCronExpressionError({
        expression: String(expression),
        reason: 'not a string',
      });
    const trimmed = expression.trim();
    const expanded = MACROS[trimmed.toLowerCase()] ?? trimmed;
    const parts = expanded.split(/\s+/);
    if (parts.length !== 5)
      throw new InvalidCronExpressionError({
        expression,
        reason: `expected 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}`,
      });
    const fields = parts.map((part, index) => parseField(expression, part, FIELDS[index]!));
    const any = parts.map((part) => part === '*' || part === '?');
    const cron = new CronExpression(expression, fields, any);
    cron.#checkReachable();
    return cron;
  }

  /** The first occurrence strictly after `time` (ms since the epoch), on a whole minute. */
  next(time: number): number {
    let t = Math.floor(time / MINUTE) * MINUTE + MINUTE;
    for (let step = 0; step < MAX_STEPS; step++) {
      const d = new Date(t);
      if (!this.#months[d.getUTCMonth() + 1]) {
        t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
      } else if (!this.#dayMatches(d)) {
        t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
      } else if (!this.#hours[d.getUTCHours()]) {
        t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours() + 1);
      } else if (!this.#minutes[d.getUTCMinutes()]) {
        t += MINUTE;
      } else {
        return t;
      }
    }
    throw new InvalidCronExpressionError({ expression: this.source, reason: 'no next occurrence' });
  }

  /** The latest occurrence at or before `time` (ms since the epoch). */
  previous(time: number): number {
    let t = Math.floor(time / MINUTE) * MINUTE;
    for (let step = 0; step < MAX_STEPS; step++) {
      const d = new Date(t);
      if (!this.#months[d.getUTCMonth() + 1]) {
        t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) - MINUTE;
      } else if (!this.#dayMatches(d)) {
        t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - MINUTE;
      } else if (!this.#hours[d.getUTCHours()]) {
        t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours()) - MINUTE;
      } else if (!this.#minutes[d.getUTCMinutes()]) {
        t -= MINUTE;
      } else {
        return t;
      }
    }
    throw new InvalidCronExpressionError({
      expression: this.source,
      reason: 'no previous occurrence',
    });
  }

  #dayMatches(d: Date): boolean {
    const byMonth = this.#daysOfMonth[d.getUTCDate()]!;
    const byWeek = this.#daysOfWeek[d.getUTCDay()]!;
    if (this.#dayOfMonthAny) return byWeek;
    if (this.#dayOfWeekAny) return byMonth;
    return byMonth || byWeek;
  }

  /** Refuse day-of-month/month combinations that never happen (`0 0 30 2 *`). */
  #checkReachable(): void {
    if (this.#dayOfMonthAny || !this.#dayOfWeekAny) return;
    for (let month = 1; month <= 12; month++) {
      if (!this.#months[month]) continue;
      for (let day = 1; day <= DAYS_IN_MONTH[month - 1]!; day++) if (this.#daysOfMonth[day]) return;
    }
    throw new InvalidCronExpressionError({
      expression: this.source,
      reason: 'the day of month never occurs in the months given',
    });
  }
}

function parseValue(expression: string, text: string, spec: FieldSpec): number {
  const upper = text.toUpperCase();
  const named = spec.names?.indexOf(upper) ?? -1;
  if (named >= 0) return named + (spec.name === 'month' ? 1 : 0);
  if (!/^\d+$/.test(text))
    throw new InvalidCronExpressionError({
      expression,
      reason: `"${text}" is not a valid ${spec.name}`,
    });
  const value = Number(text);
  if (value < spec.min || value > spec.max)
    throw new InvalidCronExpressionError({
      expression,
      reason: `${spec.name} ${value} is outside ${spec.min}-${spec.max}`,
    });
  return value;
}

function parseField(expression: string, field: string, spec: FieldSpec): boolean[] {
  const allowed = new Array<boolean>(spec.max + 1).fill(false);
  for (const item of field.split(',')) {
    const [range = '', stepText, extra] = item.split('/');
    if (extra !== undefined || range === '')
      throw new InvalidCronExpressionError({
        expression,
        reason: `"${item}" is not a valid ${spec.name}`,
      });
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\d+$/.test(stepText) || Number(stepText) === 0)
        throw new InvalidCronExpressionError({
          expression,
          reason: `step "${stepText}" of ${spec.name} must be a positive integer`,
        });
      step = Number(stepText);
    }
    let low: number;
    let high: number;
    if (range === '*' || range === '?') {
      low = spec.min;
      high = spec.name === 'day of week' ? 6 : spec.max;
    } else if (range.includes('-')) {
      const [from = '', to = '', more] = range.split('-');
      if (more !== undefined)
        throw new InvalidCronExpressionError({
          expression,
          reason: `"${range}" is not a valid ${spec.name} range`,
        });
      low = parseValue(expression, from, spec);
      high = parseValue(expression, to, spec);
      if (low > high)
        throw new InvalidCronExpressionError({
          expression,
          reason: `${spec.name} range "${range}" goes backwards`,
        });
    } else {
      low = parseValue(expression, range, spec);
      high = stepText === undefined ? low : spec.name === 'day of week' ? 6 : spec.max;
    }
    for (let value = low; value <= high; value += step) allowed[value] = true;
  }
  return allowed;
}
