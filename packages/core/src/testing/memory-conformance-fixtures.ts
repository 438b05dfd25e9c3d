import type { Content } from '../content';
import { createEvent, type Event } from '../events';
import type { Session } from '../sessions';

/** One line of a test conversation. */
export interface Said {
  author: string;
  text?: string;
  content?: Content;
  partial?: boolean;
  timestamp?: number;
}

/** A session of `appName`/`userId` whose events say `said`, one second apart. */
export function makeSession(appName: string, userId: string, id: string, said: Said[]): Session {
  let clock = 1_700_000_000_000;
  const events: Event[] = said.map((s) => {
    clock += 1000;
    return createEvent({
      invocationId: 'inv-1',
      author: s.author,
      timestamp: s.timestamp ?? clock,
      partial: s.partial,
      content: s.content ?? {
        role: s.author === 'user' ? 'user' : 'model',
        parts: [{ text: s.text ?? '' }],
      },
    });
  });
  return { id, appName, userId, state: {}, events, lastUpdateTime: clock };
}

/** The text of each memory, in order. */
export function texts(memories: { content: Content }[]): string[] {
  return memories.map((m) => m.content.parts.map((p) => p.text ?? '').join(''));
}
