import type { Event } from '../events';

/** True for a rewind event (`actions.rewindBeforeInvocationId` set, see `Runner.rewind`). */
export function isRewindEvent(event: Event): boolean {
  return event.actions?.rewindBeforeInvocationId !== undefined;
}

/**
 * The events still part of the conversation after the session's rewinds, oldest first: a rewind
 * event removes itself and every event from the first event of the invocation it names up to it
 * (later rewinds applied first, so a rewind inside a range another rewind removed is gone with
 * it). A rewind naming an invocation that has no earlier event removes only itself.
 *
 * Returns `events` itself when the session holds no rewind event (the common case, found in one
 * pass without allocating). Pure: events are never modified.
 *
 * @example
 * ```ts
 * const live = withoutRewoundEvents(session.events); // what the model and the Runner go by
 * ```
 */
export function withoutRewoundEvents(events: readonly Event[]): readonly Event[] {
  let last = -1;
  for (let index = events.length - 1; index >= 0; index--) {
    if (isRewindEvent(events[index] as Event)) {
      last = index;
      break;
    }
  }
  if (last < 0) return events;
  const kept: Event[] = [];
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as Event;
    const target = event.actions?.rewindBeforeInvocationId;
    if (target === undefined) {
      kept.push(event);
      continue;
    }
    // Jump to the first event of the named invocation; everything from it to here is rewound.
    let first = index;
    for (let earlier = 0; earlier < index; earlier++) {
      if ((events[earlier] as Event).invocationId === target) {
        first = earlier;
        break;
      }
    }
    index = first;
  }
  return kept.reverse();
}
