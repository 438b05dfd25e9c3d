import { createEvent, type Content, type Session } from '@adk/core';

/** A session of `appName`/`userId` whose user events say `texts`, one second apart. */
export function sessionSaying(
  appName: string,
  userId: string,
  id: string,
  texts: string[],
): Session {
  let clock = 1_700_000_000_000;
  const events = texts.map((text) =>
    createEvent({
      invocationId: 'inv-1',
      author: 'user',
      timestamp: (clock += 1000),
      content: { role: 'user', parts: [{ text }] },
    }),
  );
  return { id, appName, userId, state: {}, events, lastUpdateTime: clock };
}

/** The text of each memory, in order. */
export function textsOf(memories: { content: Content }[]): string[] {
  return memories.map((m) => m.content.parts.map((p) => p.text ?? '').join(''));
}
