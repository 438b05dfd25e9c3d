/**
 * Reads the delay a server asks for, in milliseconds: `retry-after-ms` (OpenAI) first, then
 * `Retry-After` as delta-seconds (`"2"`, `"1.5"`) or as an HTTP date. Returns undefined when absent
 * or unreadable; a date in the past gives 0.
 */
export function parseRetryAfter(
  headers: Record<string, string | string[] | undefined>,
  now: number = Date.now(),
): number | undefined {
  const ms = first(headers['retry-after-ms']);
  if (ms !== undefined && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const header = first(headers['retry-after'])?.trim();
  if (!header) return undefined;
  if (/^\d+(\.\d+)?$/.test(header)) return Math.round(Number(header) * 1000);
  if (!/[a-z]/i.test(header)) return undefined;
  const date = Date.parse(header);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
