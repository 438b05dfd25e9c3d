import type { FunctionCall } from '../content';
import type { Event } from '../events';
import {
  confirmationDeadline,
  REQUEST_CONFIRMATION_FUNCTION_NAME,
  type AnsweredConfirmation,
  type ConfirmationRequestArgs,
} from './confirmation';

/** A confirmation request of a session that nobody has answered yet. */
export interface PendingConfirmation {
  /** The event holding the request (its author is the agent that made the original call). */
  requestEvent: Event;
  /** Id of the `adk_request_confirmation` call (what an answer must name). */
  requestCallId: string;
  /** The call waiting for the decision. */
  call: FunctionCall & { id: string };
  /** Its deadline (ms since the epoch), when it has one. */
  expiresAt: number | undefined;
}

/**
 * The confirmation requests in `events` that no event answers, oldest first; only those of the
 * agent `author` when given. Reads only events with long-running calls, so a session without
 * pauses costs one property read per event.
 */
export function findPendingConfirmations(
  events: readonly Event[],
  author?: string,
): PendingConfirmation[] {
  const pending = new Map<string, PendingConfirmation>();
  for (let at = 0; at < events.length; at++) {
    const event = events[at]!;
    const parts = event.content?.parts;
    if (!parts) continue;
    const requesting =
      event.longRunningToolIds !== undefined && event.longRunningToolIds.length > 0;
    for (let index = 0; index < parts.length; index++) {
      const part = parts[index]!;
      const response = part.functionResponse;
      if (response?.id && response.name === REQUEST_CONFIRMATION_FUNCTION_NAME) {
        pending.delete(response.id);
        continue;
      }
      const call = part.functionCall;
      if (!requesting || !call?.id || call.name !== REQUEST_CONFIRMATION_FUNCTION_NAME) continue;
      if (author !== undefined && event.author !== author) continue;
      const original = (call.args as Partial<ConfirmationRequestArgs> | undefined)
        ?.originalFunctionCall;
      if (!original?.id) continue;
      pending.set(call.id, {
        requestEvent: event,
        requestCallId: call.id,
        call: { id: original.id, name: original.name, args: { ...original.args } },
        expiresAt: confirmationDeadline(call.args),
      });
    }
  }
  return [...pending.values()];
}

/** True when `events` hold a request of `author` whose deadline is before `now` (no allocation). */
function mayHaveExpired(events: readonly Event[], author: string, now: number): boolean {
  for (let index = 0; index < events.length; index++) {
    const event = events[index]!;
    if (event.author !== author || !event.longRunningToolIds?.length) continue;
    const parts = event.content?.parts;
    if (parts === undefined) continue;
    for (let at = 0; at < parts.length; at++) {
      const call = parts[at]!.functionCall;
      if (call?.name !== REQUEST_CONFIRMATION_FUNCTION_NAME) continue;
      const deadline = confirmationDeadline(call.args);
      if (deadline !== undefined && deadline < now) return true;
    }
  }
  return false;
}

/**
 * The requests of the agent `author` that nobody answered and whose deadline passed before `now`:
 * each becomes an {@link AnsweredConfirmation} with `expiredAt` set and `unanswered: true`, which
 * the flow answers with `CONFIRMATION_EXPIRED` (and closes the request, so a later answer does
 * nothing).
 */
export function findExpiredConfirmations(
  events: readonly Event[],
  author: string,
  now: number,
): AnsweredConfirmation[] {
  if (!mayHaveExpired(events, author, now)) return [];
  const expired: AnsweredConfirmation[] = [];
  for (const pending of findPendingConfirmations(events, author)) {
    if (pending.expiresAt === undefined || pending.expiresAt >= now) continue;
    expired.push({
      requestEvent: pending.requestEvent,
      call: pending.call,
      confirmation: undefined,
      expiredAt: pending.expiresAt,
      requestCallId: pending.requestCallId,
    });
  }
  return expired;
}
