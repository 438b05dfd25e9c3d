import { describe, expect, it } from 'vitest';

import { InvalidCronExpressionError } from '../errors';
import { CronExpression } from './cron-expression';

const at = (iso: string) => Date.parse(iso);
const iso = (time: number) => new Date(time).toISOString();

/** The next `count` occurrences after `from`. */
function upcoming(expression: string, from: string, count: number): string[] {
  const cron = CronExpression.parse(expression);
  const times: string[] = [];
  let t = at(from);
  for (let i = 0; i < count; i++) times.push(iso((t = cron.next(t))));
  return times;
}

describe('CronExpression', () => {
  it('steps every minute, strictly after the given time', () => {
    expect(upcoming('* * * * *', '2026-01-01T00:00:00Z', 2)).toEqual([
      '2026-01-01T00:01:00.000Z',
      '2026-01-01T00:02:00.000Z',
    ]);
    expect(upcoming('* * * * *', '2026-01-01T00:00:30Z', 1)).toEqual(['2026-01-01T00:01:00.000Z']);
  });

  it('reads minutes, hours, lists, ranges and steps', () => {
    expect(upcoming('*/15 9-10 * * *', '2026-03-01T10:40:00Z', 3)).toEqual([
      '2026-03-01T10:45:00.000Z',
      '2026-03-02T09:00:00.000Z',
      '2026-03-02T09:15:00.000Z',
    ]);
    expect(upcoming('5,10 0 * * *', '2026-03-01T00:05:00Z', 2)).toEqual([
      '2026-03-01T00:10:00.000Z',
      '2026-03-02T00:05:00.000Z',
    ]);
    expect(upcoming('0 1-23/6 * * *', '2026-03-01T00:00:00Z', 4)).toEqual([
      '2026-03-01T01:00:00.000Z',
      '2026-03-01T07:00:00.000Z',
      '2026-03-01T13:00:00.000Z',
      '2026-03-01T19:00:00.000Z',
    ]);
    expect(upcoming('30 20/2 * * *', '2026-03-01T21:00:00Z', 2)).toEqual([
      '2026-03-01T22:30:00.000Z',
      '2026-03-02T20:30:00.000Z',
    ]);
  });

  it('reads weekdays (names, 0 and 7 for Sunday) and months', () => {
    // 2026-01-02 is a Friday.
    expect(upcoming('30 9 * * MON-FRI', '2026-01-02T10:00:00Z', 2)).toEqual([
      '2026-01-05T09:30:00.000Z',
      '2026-01-06T09:30:00.000Z',
    ]);
    expect(upcoming('0 0 * * 7', '2026-01-01T00:00:00Z', 1)).toEqual(['2026-01-04T00:00:00.000Z']);
    expect(upcoming('0 0 * * 0', '2026-01-01T00:00:00Z', 1)).toEqual(['2026-01-04T00:00:00.000Z']);
    expect(upcoming('0 0 1 jan,Jul *', '2026-02-01T00:00:00Z', 2)).toEqual([
      '2026-07-01T00:00:00.000Z',
      '2027-01-01T00:00:00.000Z',
    ]);
  });

  it('matches either day field when both are restricted, as Vixie cron does', () => {
    // The 13th, or any Friday: 2026-02-06 (Fri), 2026-02-13 (Fri and 13th), 2026-02-20 (Fri).
    expect(upcoming('0 0 13 * FRI', '2026-02-01T00:00:00Z', 3)).toEqual([
      '2026-02-06T00:00:00.000Z',
      '2026-02-13T00:00:00.000Z',
      '2026-02-20T00:00:00.000Z',
    ]);
  });

  it('skips months without the day, and finds 29 February in leap years', () => {
    expect(upcoming('0 0 31 * *', '2026-01-31T00:00:00Z', 2)).toEqual([
      '2026-03-31T00:00:00.000Z',
      '2026-05-31T00:00:00.000Z',
    ]);
    expect(upcoming('0 12 29 2 *', '2026-01-01T00:00:00Z', 1)).toEqual([
      '2028-02-29T12:00:00.000Z',
    ]);
  });

  it('accepts the @ macros', () => {
    expect(upcoming('@hourly', '2026-01-01T00:10:00Z', 1)).toEqual(['2026-01-01T01:00:00.000Z']);
    expect(upcoming('@daily', '2026-01-01T00:10:00Z', 1)).toEqual(['2026-01-02T00:00:00.000Z']);
    expect(upcoming('@weekly', '2026-01-01T00:10:00Z', 1)).toEqual(['2026-01-04T00:00:00.000Z']);
    expect(upcoming('@monthly', '2026-01-01T00:10:00Z', 1)).toEqual(['2026-02-01T00:00:00.000Z']);
    expect(upcoming('@yearly', '2026-01-01T00:10:00Z', 1)).toEqual(['2027-01-01T00:00:00.000Z']);
  });

  it('finds the latest occurrence at or before a time', () => {
    const cron = CronExpression.parse('30 9 * * MON-FRI');
    expect(iso(cron.previous(at('2026-01-05T09:30:00Z')))).toBe('2026-01-05T09:30:00.000Z');
    expect(iso(cron.previous(at('2026-01-05T09:29:59Z')))).toBe('2026-01-02T09:30:00.000Z');
    expect(iso(cron.previous(at('2026-01-04T23:00:00Z')))).toBe('2026-01-02T09:30:00.000Z');
    expect(iso(CronExpression.parse('0 0 1 3 *').previous(at('2026-02-15T00:00:00Z')))).toBe(
      '2025-03-01T00:00:00.000Z',
    );
    expect(iso(CronExpression.parse('59 23 31 12 *').previous(at('2026-06-01T00:00:00Z')))).toBe(
      '2025-12-31T23:59:00.000Z',
    );
  });

  it('agrees with itself: previous(next(t)) is next(t)', () => {
    const expressions = [
      '*/7 * * * *',
      '0 3 * * 1',
      '15 14 1,15 * *',
      '0 0 13 * 5',
      '0 */5 * 2-4 *',
    ];
    for (const expression of expressions) {
      const cron = CronExpression.parse(expression);
      let t = at('2026-01-01T00:00:00Z');
      for (let i = 0; i < 50; i++) {
        const next = cron.next(t);
        expect(next).toBeGreaterThan(t);
        expect(cron.previous(next)).toBe(next);
        expect(cron.previous(next - 1)).toBeLessThanOrEqual(t);
        t = next;
      }
    }
  });

  it('refuses malformed expressions, naming the problem', () => {
    const cases: [string, RegExp][] = [
      ['* * * *', /expected 5 fields/],
      ['* * * * * *', /expected 5 fields/],
      // croner's reasons name the field at fault.
      ['60 * * * *', /minute: 60/],
      ['* 24 * * *', /hour: 24/],
      ['* * 0 * *', /Invalid value for day/],
      ['* * * 13 *', /Invalid value for month/],
      ['* * * * 8', /dayOfWeek: 8/],
      ['*/0 * * * *', /illegal stepping: 0/],
      ['5-1 * * * *', /larger than to value/],
      ['a * * * *', /\(a\) contains illegal characters/],
      ['1,,2 * * * *', /minute \(\) is empty/],
      ['0 0 30 2 *', /never occurs/],
      ['', /expected 5 fields/],
    ];
    for (const [expression, reason] of cases) {
      let caught: unknown;
      try {
        CronExpression.parse(expression);
      } catch (error) {
        caught = error;
      }
      expect(InvalidCronExpressionError.isInstance(caught), expression).toBe(true);
      expect((caught as Error).message).toMatch(reason);
    }
  });
});
