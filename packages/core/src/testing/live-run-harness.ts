import type { Content } from '../content';
import type { Event } from '../events';
import { LiveRequestQueue } from '../live/live-request-queue';
import type { RunLiveRequest } from '../live/run-live';
import type { Runner } from '../runner/runner';

/** A live run started in the background: its events as they come, and how it ended. */
export interface LiveRunHandle {
  queue: LiveRequestQueue;
  /** Every event yielded so far, partial ones included. */
  events: Event[];
  /** Resolves when the run's generator finished; rejects with its error. */
  done: Promise<void>;
  /** The events that were stored (not partial). */
  stored(): Event[];
}

/** Start `runner.runLive` on a new queue and collect its events (used by the live suites). */
export function startLiveRun(
  runner: Runner,
  request: Omit<RunLiveRequest, 'liveRequests'> & { queue?: LiveRequestQueue },
): LiveRunHandle {
  const queue = request.queue ?? new LiveRequestQueue();
  const events: Event[] = [];
  const done = (async () => {
    for await (const event of runner.runLive({ ...request, liveRequests: queue })) {
      events.push(event);
    }
  })();
  // The test awaits `done` itself; keep an early failure from being reported as unhandled.
  done.catch(() => undefined);
  return { queue, events, done, stored: () => events.filter((event) => !event.partial) };
}

/** A user text turn. */
export function userText(text: string): Content {
  return { role: 'user', parts: [{ text }] };
}

/** The texts of stored events, as `author: text`, for asserting what a conversation reads back as. */
export function transcriptOf(events: readonly Event[]): string[] {
  return events.flatMap((event) => {
    const text = (event.content?.parts ?? [])
      .map((part) => part.text ?? '')
      .join('')
      .trim();
    return text === '' ? [] : [`${event.author}: ${text}`];
  });
}
