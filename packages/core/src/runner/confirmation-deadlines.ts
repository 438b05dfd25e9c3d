import type { Content, Part } from '../content';
import type { Event } from '../events';
import { confirmationDeadline, REQUEST_CONFIRMATION_FUNCTION_NAME } from '../policies/confirmation';
import type { PendingConfirmation } from '../policies/confirmation-expiry';

/** Warning `code` of a background confirmation expiry that failed (the next run applies it). */
export const CONFIRMATION_EXPIRY_WARNING = 'ADK_CONFIRMATION_EXPIRY_FAILED';

/** `setTimeout` takes at most 2^31-1 ms; a later deadline is reached in several waits. */
const MAX_DELAY_MS = 2 ** 31 - 1;
/** Fire a little after the deadline, so the deadline has passed by the wall clock too. */
const MARGIN_MS = 5;

/** Expires the requests of one session: a run of the Runner, consumed to its end. */
export type ExpireSession = (
  userId: string,
  sessionId: string,
  signal: AbortSignal,
) => AsyncIterable<Event>;

/** The earliest confirmation deadline among the requests of `event`, if it has any. */
export function earliestDeadline(event: Event): number | undefined {
  let earliest: number | undefined;
  for (const part of event.content?.parts ?? []) {
    const call = part.functionCall;
    if (call?.name !== REQUEST_CONFIRMATION_FUNCTION_NAME) continue;
    const deadline = confirmationDeadline(call.args);
    if (deadline !== undefined && (earliest === undefined || deadline < earliest))
      earliest = deadline;
  }
  return earliest;
}

/**
 * The Runner's timers for confirmation deadlines, while the process lives: one per session that
 * paused on a request with a deadline (re-armed for the earliest one), unref'd so they never hold
 * the process open. When one fires, the session's expired requests are denied by a run of the
 * Runner (`Runner.expireConfirmations`). {@link close} clears them and ends the runs in flight.
 */
export class ConfirmationDeadlines {
  readonly #timers = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  readonly #running = new Set<Promise<void>>();
  readonly #stop = new AbortController();

  constructor(private readonly expire: ExpireSession) {}

  /** Make sure `userId`/`sessionId` is looked at again at `at` (ms since the epoch) or earlier. */
  watch(userId: string, sessionId: string, at: number): void {
    if (this.#stop.signal.aborted) return;
    const key = `${userId}\u0000${sessionId}`;
    const armed = this.#timers.get(key);
    if (armed && armed.at <= at) return;
    if (armed) clearTimeout(armed.timer);
    const delay = Math.min(Math.max(at - Date.now() + MARGIN_MS, 0), MAX_DELAY_MS);
    const timer = setTimeout(() => {
      this.#timers.delete(key);
      if (Date.now() < at) this.watch(userId, sessionId, at);
      else this.#fire(userId, sessionId);
    }, delay);
    timer.unref();
    this.#timers.set(key, { at, timer });
  }

  /** Clear every timer, end the expiry runs in flight and wait for them. */
  async close(): Promise<void> {
    this.#stop.abort();
    for (const { timer } of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    await Promise.all(this.#running);
  }

  #fire(userId: string, sessionId: string): void {
    const running = (async () => {
      try {
        for await (const event of this.expire(userId, sessionId, this.#stop.signal)) {
          // Stored in the session, where its readers see it: not an unread error.
          void event.errorCode;
        }
      } catch (error) {
        process.emitWarning(
          `Denying the expired confirmations of session "${sessionId}" failed; the next run on it ` +
            `will: ${error instanceof Error ? error.message : String(error)}`,
          { type: 'AdkWarning', code: CONFIRMATION_EXPIRY_WARNING },
        );
      }
    })();
    this.#running.add(running);
    void running.finally(() => this.#running.delete(running));
  }
}

/**
 * What a session's pending confirmations call for at `now`: the message answering those whose
 * deadline passed (the framework's rejections, `payload: { expired: true }`; arriving after the
 * deadline, they deny the calls with `CONFIRMATION_EXPIRED`), and the next deadline still ahead.
 */
export function planExpiry(
  pending: readonly PendingConfirmation[],
  now: number,
): { message: Content | undefined; nextDeadline: number | undefined } {
  const parts: Part[] = [];
  let nextDeadline: number | undefined;
  for (const { expiresAt, requestCallId } of pending) {
    if (expiresAt === undefined) continue;
    if (expiresAt < now) {
      parts.push({
        functionResponse: {
          id: requestCallId,
          name: REQUEST_CONFIRMATION_FUNCTION_NAME,
          response: { confirmed: false, payload: { expired: true } },
        },
      });
    } else if (nextDeadline === undefined || expiresAt < nextDeadline) nextDeadline = expiresAt;
  }
  return { message: parts.length > 0 ? { role: 'user', parts } : undefined, nextDeadline };
}
