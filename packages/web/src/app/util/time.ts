/**
 * Milliseconds since the epoch from a wire timestamp, whichever unit the server sends: the Python
 * server (and `adk web` by default) sends seconds, `@google/adk`'s TypeScript server milliseconds.
 * No date this UI shows is before 1973 in milliseconds or after 5138 in seconds, so the magnitude
 * tells them apart.
 */
export function toMillis(timestamp: number): number {
  return timestamp < 1e11 ? timestamp * 1000 : timestamp;
}

/** A short local date and time: today shows the time only. */
export function formatWhen(timestamp: number, now = Date.now()): string {
  const date = new Date(toMillis(timestamp));
  const sameDay = new Date(now).toDateString() === date.toDateString();
  return sameDay
    ? date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleString(undefined, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      });
}

/** A duration for people: `850 ms`, `1.25 s`. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
