import type { Event } from '../events';

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** Warning `code` of the unread-error-event warning, for `process.on('warning')` filters. */
export const UNREAD_ERROR_EVENT_WARNING = 'ADK_UNREAD_ERROR_EVENT';

/** What is remembered of a handed-out error event (never the event itself). */
interface Entry {
  appName: string;
  code: string;
  message: string | undefined;
  author: string;
}

/** Error events handed out and not read yet. Bounded by the live ones: see `finalization`. */
const unread = new Set<Entry>();
/** An error event collected by the garbage collector unread: warn then. */
const finalization = new FinalizationRegistry<Entry>((entry) => {
  if (unread.delete(entry)) warn(entry);
});
let exitHookInstalled = false;

function warn(entry: Entry): void {
  process.emitWarning(
    `A run of app "${entry.appName}" produced an error event that was never read: ${entry.code}` +
      `${entry.message ? `: ${entry.message}` : ''} (author: ${entry.author}). ` +
      'Agent, model and tool failures arrive as events: check event.errorCode in your loop.',
    { type: 'AdkWarning', code: UNREAD_ERROR_EVENT_WARNING },
  );
}

/**
 * Warns once for the error events handed out so far that nobody read, and forgets them. Runs
 * when the process is about to exit (`beforeExit`); exported for tests.
 *
 * @internal
 */
export function reportUnreadErrorEvents(): void {
  const [first] = unread;
  unread.clear();
  if (first) warn(first);
}

/**
 * Makes an error event nobody looked at visible. Agent, model and tool failures are events (with
 * `errorCode`), not exceptions, so a caller that prints only `getText(event.content)` would see a
 * silent, successful-looking run when, say, the API key is missing.
 *
 * The Runner hands out each error event as a copy whose `errorCode` and `errorMessage` note when
 * they are read: directly, through a spread, `JSON.stringify`, `structuredClone` or `console.log`
 * (which shows plain data). An error event that is never read gets one process warning
 * (`AdkWarning`, code `ADK_UNREAD_ERROR_EVENT`): when the garbage collector drops it, or when the
 * process is about to exit, whichever comes first. Reading it any time before, even after the run
 * ended (events collected into an array and checked later), counts.
 *
 * Costs nothing for events without `errorCode`; an error event is copied once (shallow).
 */
export function trackErrorEvent(event: Event, appName: string): Event {
  if (event.errorCode === undefined || event.partial) return event;
  const entry: Entry = {
    appName,
    code: event.errorCode,
    message: event.errorMessage,
    author: event.author,
  };
  const read = () => unread.delete(entry);
  const copy: Event = { ...event };
  for (const key of ['errorCode', 'errorMessage'] as const) {
    const value = event[key];
    Object.defineProperty(copy, key, {
      enumerable: true,
      configurable: true,
      get() {
        read();
        return value;
      },
      set(next: string | undefined) {
        read();
        Object.defineProperty(copy, key, { value: next, enumerable: true, writable: true });
      },
    });
  }
  Object.defineProperty(copy, INSPECT, {
    enumerable: false,
    value: () => {
      read();
      const plain: Record<string, unknown> = {};
      for (const key of Object.keys(copy))
        plain[key] = (copy as unknown as Record<string, unknown>)[key];
      return plain;
    },
  });
  unread.add(entry);
  finalization.register(copy, entry);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('beforeExit', reportUnreadErrorEvents);
  }
  return copy;
}
