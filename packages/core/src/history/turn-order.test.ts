import { describe, expect, it } from 'vitest';

import type { Content, Part } from '../content';
import { createEvent, type Event } from '../events';
import { deepFreeze } from '../sessions/append-helpers';
import { buildContents } from './build-contents';
import { buildContentsIncrementally } from './contents-cache';
import {
  CONTINUE_TURN_TEXT,
  EMPTY_HISTORY_TEXT,
  LEADING_USER_TURN_TEXT,
  withUserTurnsAtEnds,
} from './turn-order';

let clock = 1_000;
function stored(invocationId: string, author: string, part: Part): Event {
  const role = author === 'user' || part.functionResponse ? 'user' : 'model';
  return deepFreeze(
    createEvent({ invocationId, author, content: { role, parts: [part] }, timestamp: clock++ }),
  );
}

const roles = (contents: Content[]) => contents.map((content) => content.role);

describe('what the flow sends a model starts and ends with a user turn', () => {
  it("adds a user turn after the agent's own last turn", () => {
    const events = [stored('i1', 'user', { text: 'hi' }), stored('i1', 'bot', { text: 'hello' })];
    const sent = buildContentsIncrementally(events, { agentName: 'bot' });
    expect(roles(sent)).toEqual(['user', 'model', 'user']);
    expect(sent[2]?.parts[0]?.text).toBe(CONTINUE_TURN_TEXT);
  });

  it('adds one before a resumed call when includeContents is none', () => {
    // A long-running call, then another message, then its answer: the current turn starts with
    // the agent's call, which must not be the first turn sent.
    const events = [
      stored('i1', 'user', { text: 'start the job' }),
      stored('i1', 'bot', { functionCall: { id: 'job', name: 'start_job', args: {} } }),
      stored('i2', 'user', { text: 'how is it going?' }),
      stored('i2', 'bot', { text: 'still running' }),
      stored('i3', 'user', {
        functionResponse: { id: 'job', name: 'start_job', response: { done: true } },
      }),
    ];
    const options = { agentName: 'bot', includeContents: 'none' as const };
    expect(roles(buildContents(events, options))[0]).toBe('model');
    const sent = buildContentsIncrementally(events, options);
    expect(sent[0]?.parts[0]?.text).toBe(LEADING_USER_TURN_TEXT);
    expect(sent[1]?.parts[0]?.functionCall?.id).toBe('job');
    expect(sent[2]?.parts[0]?.functionResponse?.id).toBe('job');
    expect(roles(sent).at(-1)).toBe('user');
  });

  it('gives an empty history one user turn, and leaves a proper one alone', () => {
    expect(withUserTurnsAtEnds([])).toEqual([
      { role: 'user', parts: [{ text: EMPTY_HISTORY_TEXT }] },
    ]);
    const proper = [
      { role: 'user', parts: [{ text: 'q' }] },
      { role: 'model', parts: [{ text: 'a' }] },
      { role: 'user', parts: [{ text: 'q2' }] },
    ];
    expect(withUserTurnsAtEnds(proper.slice())).toEqual(proper);
  });
});
