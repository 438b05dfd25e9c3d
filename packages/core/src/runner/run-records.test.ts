import { describe, expect, it } from 'vitest';

import { LlmAgent } from '../agents/llm-agent';
import { SequentialAgent } from '../agents/sequential-agent';
import { userContent } from '../content';
import { createEvent, type Event } from '../events';
import { FakeModel } from '../testing/fake-model';
import { findMessageAwaitingAgent } from './awaiting-message';
import { readInvocationProgress } from './invocation-progress';
import { WORKFLOW_METADATA_KEY, type WorkflowRecord } from './run-records';

/** An event of the step-recorded agent `flow` carrying `record` (its run is `run`). */
function recordEvent(
  invocationId: string,
  record: Partial<WorkflowRecord> & { kind: WorkflowRecord['kind'] },
  extra: Partial<Event> = {},
): Event {
  return {
    ...createEvent({ invocationId, author: 'flow' }),
    customMetadata: { [WORKFLOW_METADATA_KEY]: { workflow: 'flow', run: 'i1', ...record } },
    ...extra,
  };
}

const user = (invocationId: string, text: string) =>
  createEvent({ invocationId, author: 'user', content: userContent(text) });

describe('readInvocationProgress and step-recorded runs', () => {
  it('an open run makes the invocation unfinished; the end record finishes it', () => {
    const events = [
      user('i1', 'go'),
      recordEvent('i1', { kind: 'start', input: 'go' }),
      recordEvent('i1', { kind: 'output', path: 'a@0', node: 'a', output: 1, attempts: 1 }),
    ];
    const open = readInvocationProgress(events, 'i1');
    expect(open.finished).toBe(false);
    expect(open.openRuns.map((run) => [run.author, [...run.run.outputs.keys()]])).toEqual([
      ['flow', ['a@0']],
    ]);
    const ended = [...events, recordEvent('i1', { kind: 'end', status: 'completed', output: 1 })];
    expect(readInvocationProgress(ended, 'i1')).toMatchObject({ finished: true, openRuns: [] });
  });

  it('a paused run is finished (an answer continues it), and a run a later invocation continued is not this one', () => {
    const paused = [
      user('i1', 'go'),
      recordEvent('i1', { kind: 'start', input: 'go' }),
      recordEvent(
        'i1',
        { kind: 'interrupt', path: 'a@0', node: 'a', requestIds: ['r1'], own: true },
        { longRunningToolIds: ['r1'] },
      ),
    ];
    expect(readInvocationProgress(paused, 'i1')).toMatchObject({ finished: true });
    const continued = [
      ...paused,
      user('i2', 'answer'),
      recordEvent('i2', { kind: 'output', path: 'a@0', node: 'a', output: 2, attempts: 1 }),
    ];
    expect(readInvocationProgress(continued, 'i1').openRuns).toEqual([]);
    expect(readInvocationProgress(continued, 'i2')).toMatchObject({ finished: false });
  });
});

describe('findMessageAwaitingAgent', () => {
  const flow = new LlmAgent({ name: 'flow', model: new FakeModel({ responses: [] }) });
  const root = new SequentialAgent({ name: 'root', subAgents: [flow] });
  const waiting = recordEvent(
    'i1',
    {
      kind: 'interrupt',
      path: 'task@0',
      node: 'task',
      requestIds: [],
      own: false,
      awaitsMessage: true,
    },
    { longRunningToolIds: ['awaits-message:task@0'] },
  );

  it('a plain message after a pause that awaits one goes to the agent that paused', () => {
    expect(findMessageAwaitingAgent([waiting, user('i2', 'A-17')], root)).toBe(flow);
  });

  it('not for an answer to a call, a pause that awaits an answer, or an older pause', () => {
    const answer = createEvent({
      invocationId: 'i2',
      author: 'user',
      content: {
        role: 'user',
        parts: [{ functionResponse: { id: 'r1', name: 'x', response: {} } }],
      },
    });
    expect(findMessageAwaitingAgent([waiting, answer], root)).toBeUndefined();
    const own = recordEvent(
      'i1',
      { kind: 'interrupt', path: 'a@0', node: 'a', requestIds: ['r1'], own: true },
      { longRunningToolIds: ['r1'] },
    );
    expect(findMessageAwaitingAgent([own, user('i2', 'hi')], root)).toBeUndefined();
    const later = createEvent({ invocationId: 'i2', author: 'flow', content: userContent('ok') });
    expect(findMessageAwaitingAgent([waiting, later, user('i3', 'hi')], root)).toBeUndefined();
  });
});
