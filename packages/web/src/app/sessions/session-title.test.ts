import { describe, expect, it } from 'vitest';

import type { AdkEvent } from '../api/types';
import { sessionMatches, sessionTitle, stateDelta, TITLE_KEY } from './session-title';

const event = (author: string, text: string): AdkEvent => ({
  id: Math.random().toString(36),
  invocationId: 'i',
  author,
  timestamp: 1,
  content: { role: author === 'user' ? 'user' : 'model', parts: [{ text }] },
});

describe('session names', () => {
  it('uses the name given with Rename, else the first user message, else "New session"', () => {
    const events = [event('agent', 'Hi!'), event('user', '  What is\nthe weather   in Paris? ')];
    expect(sessionTitle({ state: {}, events })).toBe('What is the weather in Paris?');
    expect(sessionTitle({ state: { [TITLE_KEY]: 'Trip' }, events })).toBe('Trip');
    expect(sessionTitle({ state: {}, events: [] })).toBe('New session');
    expect(sessionTitle({ state: {}, events: [event('user', 'x'.repeat(100))] })).toHaveLength(58);
  });

  it('matches a search on the title, the id or any message', () => {
    const session = {
      id: 'abc-123',
      state: {},
      events: [event('user', 'Paris'), event('a', 'Sunny')],
    };
    expect(sessionMatches(session, 'paris')).toBe(true);
    expect(sessionMatches(session, 'SUNNY')).toBe(true);
    expect(sessionMatches(session, 'abc')).toBe(true);
    expect(sessionMatches(session, 'london')).toBe(false);
  });
});

describe('state edits', () => {
  it('sends changed and new keys, and null for removed ones', () => {
    expect(
      stateDelta({ a: 1, b: { c: 2 }, gone: true }, { a: 1, b: { c: 3 }, added: 'x' }),
    ).toEqual({
      b: { c: 3 },
      added: 'x',
      gone: null,
    });
  });
});
