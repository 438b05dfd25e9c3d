import type { LlmResponse } from '../models/llm-response';
import { createEventActions, type EventActions } from './event-actions';
import { randomUuid } from './random-uuid';

/**
 * One step of a conversation: a user message, a model response (or streamed chunk), a tool
 * result, a transfer, an error. Sessions are the ordered list of their events.
 *
 * Serialises with `JSON.stringify` to the camelCase JSON the official ADKs use; `timestamp` is in
 * milliseconds since the epoch (as `@google/adk` for TypeScript).
 */
export interface Event extends LlmResponse {
  /** Unique id of the event. */
  id: string;
  /** Id shared by every event of one `Runner.run` call. */
  invocationId: string;
  /** `user`, or the name of the agent that produced the event. */
  author: string;
  /**
   * Agent path for isolated branches (`parallel.child`); events are visible to their own branch and
   * its descendants only. Unset for the main line.
   */
  branch?: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
  actions: EventActions;
  /** Ids of function calls in this event that run long: the invocation ends waiting for them. */
  longRunningToolIds?: string[];
}

/** Fields accepted by {@link createEvent}; everything but `invocationId` and `author` has a default. */
export type EventInit = Partial<Omit<Event, 'actions'>> &
  Pick<Event, 'invocationId' | 'author'> & { actions?: Partial<EventActions> };

/** A new event id. */
export function newEventId(): string {
  return randomUuid();
}

/**
 * Create an event with a fresh id, the current time and its own actions object. Members given as
 * `undefined` are omitted.
 *
 * @example
 * ```ts
 * const event = createEvent({ invocationId, author: 'user', content: userContent('hi') });
 * ```
 */
export function createEvent(init: EventInit): Event {
  const event = {} as Event;
  // Members set to `undefined` are left out, so an event equals its JSON round trip.
  for (const key in init) {
    const value = init[key as keyof EventInit];
    if (value !== undefined) (event as unknown as Record<string, unknown>)[key] = value;
  }
  event.id = init.id ?? newEventId();
  event.timestamp = init.timestamp ?? Date.now();
  event.actions = createEventActions(init.actions);
  return event;
}
