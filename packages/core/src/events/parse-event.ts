import { InvalidEventError } from '../errors/invalid-event-error';
import type { Event } from './event';
import { eventSchema } from './event-schema';

/**
 * Validate a value decoded from JSON (a database row, an HTTP body, a file) and return it as an
 * {@link Event}. Optional fields written as `null` (as some ADKs do) are treated as absent.
 *
 * @throws InvalidEventError naming the first offending field (`content.parts.0.functionCall.name`).
 *
 * @example
 * ```ts
 * const event = parseEvent(JSON.parse(row.event_data));
 * ```
 */
export function parseEvent(json: unknown): Event {
  const result = eventSchema.safeParse(dropNulls(json));
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
    throw new InvalidEventError({
      field,
      message: issue?.message ?? 'invalid value',
      cause: result.error,
    });
  }
  return result.data as Event;
}

/** Remove `null` members of the event and of its actions (never values inside state or args). */
function dropNulls(json: unknown): unknown {
  if (!isRecord(json)) return json;
  const copy = withoutNulls(json);
  if (isRecord(copy.actions)) copy.actions = withoutNulls(copy.actions);
  return copy;
}

function withoutNulls(record: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key in record) if (record[key] !== null) copy[key] = record[key];
  return copy;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
