/**
 * A time column's value as read, as epoch milliseconds (`NaN` for anything that is not a time):
 * - a number, a bigint, or numeric text (SQLite `INTEGER` epoch ms; PostgreSQL `bigint`, which
 *   pg returns as text, or `extract(epoch …)` as `float8`);
 * - a `Date` (pg's value for `timestamp` and `timestamptz`);
 * - date text: ISO-8601, or `YYYY-MM-DD HH:MM:SS.ffffff` as SQLAlchemy writes it to SQLite; text
 *   without a zone is UTC (the Python ADK stores naive UTC).
 *
 * @example
 * ```ts
 * epochMillis('1700000000000'); // 1700000000000
 * epochMillis('2024-01-02 03:04:05.123'); // 1704164645123, whatever the process's time zone
 * ```
 */
export function epochMillis(raw: unknown): number {
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'bigint') return Number(raw);
  if (raw instanceof Date) return raw.getTime();
  if (typeof raw === 'string') {
    const numeric = Number(raw);
    if (raw.trim() !== '' && Number.isFinite(numeric)) return numeric;
    const iso = raw.includes('T') ? raw : raw.replace(' ', 'T');
    return Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`);
  }
  return Number.NaN;
}
