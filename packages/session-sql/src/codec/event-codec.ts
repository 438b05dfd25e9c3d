import { createEventActions, type Event } from '@adk/core';

import { fromStorageKeys, toStorageKeys } from './key-case';

/** The `event_data` object stored for `event` (snake_case, as `@google/adk` writes it). */
export function encodeEventData(event: Event): Record<string, unknown> {
  return toStorageKeys(event);
}

/** The columns of an event row, decoded. */
export interface EventRowValues {
  id: string;
  invocationId: string;
  /** `events.timestamp` in ms, used when `event_data` lacks one. */
  timestamp: number | undefined;
  data: unknown;
}

/**
 * Rebuild an event from its row. `id`, `invocation_id` and `timestamp` come from the columns when
 * `event_data` lacks them (as the Python ADK reads), and a timestamp in seconds (Python) is
 * recognised by its column and turned into milliseconds. Returns a reason string when the row is
 * not an event.
 */
export function decodeEventRow(row: EventRowValues): Event | string {
  if (row.data === null || typeof row.data !== 'object' || Array.isArray(row.data)) {
    return 'event_data is not a JSON object';
  }
  const camel = fromStorageKeys(row.data);
  camel.id ??= row.id;
  camel.invocationId ??= row.invocationId;
  camel.timestamp ??= row.timestamp;
  // The Python ADK stores `event_data.timestamp` in seconds; its column says which unit it is.
  if (
    typeof camel.timestamp === 'number' &&
    row.timestamp !== undefined &&
    Math.abs(camel.timestamp * 1000 - row.timestamp) < 1
  ) {
    camel.timestamp = Math.round(camel.timestamp * 1_000_000) / 1000;
  }
  if (typeof camel.author !== 'string') return 'event_data has no string "author"';
  if (typeof camel.timestamp !== 'number' || !Number.isFinite(camel.timestamp)) {
    return 'event_data has no numeric "timestamp"';
  }
  const actions = camel.actions;
  if (
    actions !== undefined &&
    (actions === null || typeof actions !== 'object' || Array.isArray(actions))
  ) {
    return 'event_data "actions" is not an object';
  }
  if (camel.longRunningToolIds !== undefined && !Array.isArray(camel.longRunningToolIds)) {
    return 'event_data "long_running_tool_ids" is not an array';
  }
  const event = camel as unknown as Event;
  event.actions = createEventActions(event.actions);
  return event;
}
