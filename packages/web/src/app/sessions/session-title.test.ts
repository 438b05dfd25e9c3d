import { describe, expect, it } from 'vitest';

import type { AdkEvent } from '../api/types';
import {
  applyStateDelta,
  LEGACY_TITLE_KEY,
  METADATA_KEY,
  nameDelta,
  sessionMatches,
  sessionTitle,
  stateDelta,
} from './session-title';

const event = (author: string, text: string): AdkEvent => ({
  id: Math.random().toString(36),
  invocationId: 'i',
  author,
  timestamp: 1,
  content: { role: author === 'user' ? 'user' : 'model', parts: [{ text }] },
});

describe('session names', () => {
  it('uses the stored name, else the first user message, else "New session"', () => {
    const events = [event('agent', 'Hi!'), event('user', '  What is\nthe weather   in Paris? ')];
    expect(sessionTitle({ state: {}, events })).toBe('What is the weather in Paris?');
    expect(sessionTitle({ state: { [METADATA_KEY]: { displayName: 'Trip' } }, events })).toBe(
      'Trip',
    );
    // The key this UI used before the official one is still read.
    expect(sessionTitle({ state: { [LEGACY_TITLE_KEY]: 'Old' }, events })).toBe('Old');
    expect(sessionTitle({ state: {}, events: [] })).toBe('New session');
    // Cut as the official UI cuts a first message: 47 characters and "...".
    expect(sessionTitle({ state: {}, events: [event('user', 'x'.repeat(100))] })).toBe(
      `${'x'.repeat(47)}...`,
    );
  });

  it('renames where the official UI reads the name, keeping the other metadata', () => {
    const state = { [METADATA_KEY]: { displayName: 'Old', pinned: true }, other: 1 };
    expect(nameDelta(state, 'New')).toEqual({
      [METADATA_KEY]: { displayName: 'New', pinned: true },
    });
    expect(nameDelta({ [METADATA_KEY]: 'not an object' }, 'New')).toEqual({
      [METADATA_KEY]: { displayName: 'New' },
    });
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
  it('applies a delta as the session service does: keys replaced, temp: keys not kept', () => {
    const state: Record<string, unknown> = { a: 1, b: 2 };
    expect(applyStateDelta(state, { b: 3, 'temp:x': 1 })).toBe(true);
    expect(state).toEqual({ a: 1, b: 3 });
    expect(applyStateDelta(state, undefined)).toBe(false);
  });

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
