import type { Event } from '@adk/core';

/**
 * The events of a `/run_sse` body: the JSON of each frame's `data:` lines (a frame may also
 * carry an `id:` line, the stored event's id).
 */
export function sseEvents(body: string): Event[] {
  return body
    .split('\n\n')
    .map((frame) =>
      frame
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n'),
    )
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data) as Event);
}
