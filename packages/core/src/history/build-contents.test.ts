import { describe, expect, it } from 'vitest';

import type { Content, Part } from '../content';
import { createEvent, type Event, type EventInit } from '../events';
import { buildContents } from './build-contents';
import { findResumedCaller } from './find-caller';

let clock = 1_000;
function ev(author: string, parts: Part[], extra: Partial<EventInit> = {}): Event {
  const role =
    author === 'user' ? 'user' : parts.some((p) => p.functionResponse) ? 'user' : 'model';
  return createEvent({
    invocationId: 'inv',
    author,
    content: { role, parts },
    timestamp: clock++,
    ...extra,
  });
}
const text = (t: string): Part => ({ text: t });
const call = (id: string, name: string, args: Record<string, unknown> = {}): Part => ({
  functionCall: { id, name, args },
});
const resp = (id: string, name: string, response: Record<string, unknown>): Part => ({
  functionResponse: { id, name, response },
});

describe('buildContents: basic conversion', () => {
  it('maps user events to user turns and the agent’s own events to model turns', () => {
    const events = [
      ev('user', [text('hi')]),
      ev('bot', [text('hello')]),
      ev('user', [text('bye')]),
    ];
    expect(buildContents(events, { agentName: 'bot' })).toEqual([
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'model', parts: [{ text: 'hello' }] },
      { role: 'user', parts: [{ text: 'bye' }] },
    ]);
  });

  it('skips partial, empty, content-less and error events', () => {
    const events = [
      ev('user', [text('q')]),
      ev('bot', [text('par')], { partial: true }),
      ev('bot', [text('')]),
      createEvent({ invocationId: 'inv', author: 'bot', timestamp: clock++ }),
      ev('bot', [text('broken')], { errorCode: 'SAFETY', errorMessage: 'blocked' }),
      ev('bot', [text('answer')]),
    ];
    expect(buildContents(events, { agentName: 'bot' })).toEqual([
      { role: 'user', parts: [{ text: 'q' }] },
      { role: 'model', parts: [{ text: 'answer' }] },
    ]);
  });

  it('keeps the agent’s own thoughts but drops empty text parts', () => {
    const events = [ev('bot', [{ text: 'hmm', thought: true }, text(''), text('ok')])];
    expect(buildContents(events, { agentName: 'bot' })).toEqual([
      { role: 'model', parts: [{ text: 'hmm', thought: true }, { text: 'ok' }] },
    ]);
  });

  it('never aliases or mutates the input events', () => {
    const events = [
      ev('user', [text('q')]),
      ev('bot', [call('c1', 'f', { a: 1 })]),
      ev('bot', [resp('c1', 'f', { r: 1 })]),
    ];
    const before = structuredClone(events);
    const contents = buildContents(events, { agentName: 'bot' });
    (contents[1]?.parts[0]?.functionCall as { name: string }).name = 'mutated';
    (contents[0]?.parts[0] as { text: string }).text = 'mutated';
    expect(events).toEqual(before);
  });
});

describe('buildContents: other agents are context', () => {
  it('reframes another agent’s text, calls and results as a user turn', () => {
    const events = [
      ev('user', [text('weather in Paris?')]),
      ev('router', [
        { text: 'thinking', thought: true },
        text('Let me route.'),
        call('t1', 'transfer_to_agent', { agent_name: 'weather' }),
      ]),
      ev('router', [resp('t1', 'transfer_to_agent', { result: null })]),
    ];
    expect(buildContents(events, { agentName: 'weather' })).toEqual([
      { role: 'user', parts: [{ text: 'weather in Paris?' }] },
      {
        role: 'user',
        parts: [
          { text: 'For context:' },
          { text: '[router] said: Let me route.' },
          {
            text: '[router] called tool `transfer_to_agent` with parameters: {"agent_name":"weather"}',
          },
        ],
      },
      {
        role: 'user',
        parts: [
          { text: 'For context:' },
          { text: '[router] tool `transfer_to_agent` returned result: {"result":null}' },
        ],
      },
    ]);
  });

  it('keeps media parts of other agents and falls back to String() for unserialisable values', () => {
    const big = { n: 10n } as unknown as Record<string, unknown>;
    const events = [
      ev('other', [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }, call('x', 'f', big)]),
    ];
    expect(buildContents(events, { agentName: 'bot' })).toEqual([
      {
        role: 'user',
        parts: [
          { text: 'For context:' },
          { inlineData: { mimeType: 'image/png', data: 'AA==' } },
          { text: '[other] called tool `f` with parameters: [object Object]' },
        ],
      },
    ]);
  });
});

describe('buildContents: branches', () => {
  const events = (): Event[] => [
    ev('user', [text('go')]),
    ev('a', [text('from a')], { branch: 'par.a' }),
    ev('b', [text('from b')], { branch: 'par.b' }),
    ev('a2', [text('from a.seq')], { branch: 'par.a.seq' }),
  ];
  it('hides sibling branches and shows ancestors', () => {
    const seen = (branch: string, agentName: string): string[] =>
      buildContents(events(), { agentName, branch }).map((c) =>
        c.parts.map((p) => p.text).join('|'),
      );
    expect(seen('par.a', 'a')).toEqual(['go', 'from a']);
    expect(seen('par.b', 'b')).toEqual(['go', 'from b']);
    expect(seen('par.a.seq', 'a2')).toEqual(['go', 'For context:|[a] said: from a', 'from a.seq']);
  });
  it('shows every branch to an agent on the main line', () => {
    expect(buildContents(events(), { agentName: 'summary' })).toHaveLength(4);
  });
  it('does not confuse a branch with a name prefix', () => {
    const e = [ev('x', [text('secret')], { branch: 'par.a' })];
    expect(buildContents(e, { agentName: 'y', branch: 'par.ab' })).toEqual([]);
  });
});

describe('buildContents: function call pairing', () => {
  it('moves a long-running result sent later by the user right after its call', () => {
    const events = [
      ev('user', [text('start job')]),
      ev('bot', [call('L1', 'long_job')], { longRunningToolIds: ['L1'] }),
      ev('bot', [text('Job started.')]),
      ev('user', [text('status?')]),
      ev('bot', [text('Still running.')]),
      ev('user', [resp('L1', 'long_job', { status: 'done' })]),
    ];
    expect(buildContents(events, { agentName: 'bot' })).toEqual([
      { role: 'user', parts: [{ text: 'start job' }] },
      { role: 'model', parts: [{ functionCall: { id: 'L1', name: 'long_job', args: {} } }] },
      {
        role: 'user',
        parts: [{ functionResponse: { id: 'L1', name: 'long_job', response: { status: 'done' } } }],
      },
      { role: 'model', parts: [{ text: 'Job started.' }] },
      { role: 'user', parts: [{ text: 'status?' }] },
      { role: 'model', parts: [{ text: 'Still running.' }] },
    ]);
  });

  it('merges parallel responses recorded in separate events, in call order', () => {
    const events = [
      ev('bot', [call('c1', 'a'), call('c2', 'b'), call('c3', 'c')]),
      ev('bot', [resp('c3', 'c', { v: 3 }), resp('c1', 'a', { v: 1 })]),
      ev('user', [resp('c2', 'b', { v: 2 })]),
    ];
    expect(buildContents(events, { agentName: 'bot' })).toEqual([
      { role: 'model', parts: [call('c1', 'a'), call('c2', 'b'), call('c3', 'c')] },
      {
        role: 'user',
        parts: [resp('c1', 'a', { v: 1 }), resp('c2', 'b', { v: 2 }), resp('c3', 'c', { v: 3 })],
      },
    ]);
  });

  it('lets a later response for the same id replace an interim one', () => {
    const events = [
      ev('bot', [call('L', 'job')], { longRunningToolIds: ['L'] }),
      ev('bot', [resp('L', 'job', { status: 'pending' })]),
      ev('bot', [text('started')]),
      ev('user', [resp('L', 'job', { status: 'done' })]),
    ];
    const contents = buildContents(events, { agentName: 'bot' });
    expect(contents[1]).toEqual({ role: 'user', parts: [resp('L', 'job', { status: 'done' })] });
    expect(contents).toHaveLength(3);
  });

  it('leaves out unanswered calls and orphan responses, keeping text around them', () => {
    const events = [
      ev('bot', [text('I will ask.'), call('p', 'pending_tool')]),
      ev('user', [text('never mind'), resp('zzz', 'ghost', {})]),
    ];
    expect(buildContents(events, { agentName: 'bot' })).toEqual([
      { role: 'model', parts: [{ text: 'I will ask.' }] },
      { role: 'user', parts: [{ text: 'never mind' }] },
    ]);
  });

  it('keeps the user’s text when it arrives together with a function response', () => {
    const events = [
      ev('bot', [call('L', 'job')]),
      ev('user', [text('here you go'), resp('L', 'job', { ok: true })]),
    ];
    expect(buildContents(events, { agentName: 'bot' })).toEqual([
      { role: 'model', parts: [call('L', 'job')] },
      { role: 'user', parts: [resp('L', 'job', { ok: true })] },
      { role: 'user', parts: [{ text: 'here you go' }] },
    ]);
  });

  it('relays a user’s answer to another agent’s call as context', () => {
    const events = [ev('other', [call('L', 'job')]), ev('user', [resp('L', 'job', { ok: true })])];
    expect(buildContents(events, { agentName: 'bot' })).toEqual([
      {
        role: 'user',
        parts: [
          { text: 'For context:' },
          { text: '[other] called tool `job` with parameters: {}' },
        ],
      },
      {
        role: 'user',
        parts: [
          { text: 'For context:' },
          { text: '[other] tool `job` returned result: {"ok":true}' },
        ],
      },
    ]);
  });

  it('hides framework confirmation calls and responses from the model', () => {
    const events = [
      ev('bot', [call('c1', 'delete_file', { path: '/x' })]),
      ev('bot', [call('k1', 'adk_request_confirmation', { originalFunctionCall: { id: 'c1' } })], {
        longRunningToolIds: ['k1'],
      }),
      ev('user', [resp('k1', 'adk_request_confirmation', { confirmed: true })]),
      ev('bot', [resp('c1', 'delete_file', { deleted: true })]),
    ];
    expect(buildContents(events, { agentName: 'bot' })).toEqual([
      { role: 'model', parts: [call('c1', 'delete_file', { path: '/x' })] },
      { role: 'user', parts: [resp('c1', 'delete_file', { deleted: true })] },
    ]);
  });
});

describe("buildContents: includeContents 'none'", () => {
  it('keeps only the current turn', () => {
    const events = [
      ev('user', [text('first')]),
      ev('bot', [text('one')]),
      ev('user', [text('second')]),
      ev('helper', [text('note')]),
    ];
    const contents: Content[] = buildContents(events, {
      agentName: 'bot',
      includeContents: 'none',
    });
    expect(contents).toEqual([
      { role: 'user', parts: [{ text: 'second' }] },
      { role: 'user', parts: [{ text: 'For context:' }, { text: '[helper] said: note' }] },
    ]);
  });

  it('keeps the call a resumed function response answers', () => {
    const events = [
      ev('user', [text('old')]),
      ev('bot', [call('L', 'job')], { longRunningToolIds: ['L'] }),
      ev('user', [text('new')]),
      ev('user', [resp('L', 'job', { done: true })]),
    ];
    expect(buildContents(events, { agentName: 'bot', includeContents: 'none' })).toEqual([
      { role: 'model', parts: [call('L', 'job')] },
      { role: 'user', parts: [resp('L', 'job', { done: true })] },
      { role: 'user', parts: [{ text: 'new' }] },
    ]);
  });
});

describe('buildContents: compaction', () => {
  it('replaces the compacted range with its summary, in place', () => {
    const e1 = ev('user', [text('old question')]);
    const e2 = ev('bot', [text('old answer')]);
    const e3 = ev('user', [text('recent')]);
    const compaction = createEvent({
      invocationId: 'inv',
      author: 'bot',
      timestamp: clock++,
      actions: {
        compaction: {
          startTimestamp: e1.timestamp,
          endTimestamp: e2.timestamp,
          compactedContent: { role: 'model', parts: [{ text: 'User asked X; answered Y.' }] },
        },
      },
    });
    const e4 = ev('bot', [text('reply')]);
    expect(buildContents([e1, e2, e3, compaction, e4], { agentName: 'bot' })).toEqual([
      { role: 'user', parts: [{ text: '[Previous context summary]\nUser asked X; answered Y.' }] },
      { role: 'user', parts: [{ text: 'recent' }] },
      { role: 'model', parts: [{ text: 'reply' }] },
    ]);
  });

  it('uses only the widest summary when compactions nest, and drops silent ones', () => {
    const e1 = ev('user', [text('a')]);
    const e2 = ev('bot', [text('b')]);
    const inner = createEvent({
      invocationId: 'i',
      author: 'bot',
      timestamp: clock++,
      actions: {
        compaction: {
          startTimestamp: e1.timestamp,
          endTimestamp: e2.timestamp,
          compactedContent: { parts: [{ text: 'S1' }] },
        },
      },
    });
    const e3 = ev('user', [text('c')]);
    const outer = createEvent({
      invocationId: 'i',
      author: 'bot',
      timestamp: clock++,
      actions: {
        compaction: {
          startTimestamp: e1.timestamp,
          endTimestamp: e3.timestamp,
          compactedContent: { parts: [{ text: 'S2' }] },
        },
      },
    });
    const e4 = ev('user', [text('d')]);
    const silent = createEvent({
      invocationId: 'i',
      author: 'bot',
      timestamp: clock++,
      actions: {
        compaction: {
          startTimestamp: e4.timestamp,
          endTimestamp: e4.timestamp,
          compactedContent: { parts: [] },
        },
      },
    });
    const e5 = ev('user', [text('e')]);
    const texts = buildContents([e1, e2, inner, e3, outer, e4, silent, e5], {
      agentName: 'bot',
    }).map((c) => c.parts[0]?.text);
    expect(texts).toEqual(['[Previous context summary]\nS2', 'e']);
  });
});

describe('buildContents: rejected input', () => {
  it('keeps a message rejected by a policy out of the model’s view', () => {
    const events = [
      ev('user', [text('ok question')], { invocationId: 'i1' }),
      ev('bot', [text('ok answer')], { invocationId: 'i1' }),
      ev('user', [text('forbidden')], { invocationId: 'i2' }),
      ev('bot', [text('Rejected')], {
        invocationId: 'i2',
        errorCode: 'INPUT_REJECTED',
        errorMessage: 'no',
      }),
      ev('user', [text('next')], { invocationId: 'i3' }),
    ];
    expect(buildContents(events, { agentName: 'bot' }).map((c) => c.parts[0]?.text)).toEqual([
      'ok question',
      'ok answer',
      'next',
    ]);
  });
});

describe('findResumedCaller', () => {
  it('names the agent whose call the latest user message answers', () => {
    const events = [
      ev('user', [text('start')]),
      ev('worker', [call('L1', 'job')], { longRunningToolIds: ['L1'] }),
      ev('router', [text('waiting')]),
      ev('user', [resp('L1', 'job', { done: true })]),
    ];
    expect(findResumedCaller(events)).toBe('worker');
  });
  it('is undefined for plain messages and unknown ids', () => {
    expect(
      findResumedCaller([ev('bot', [call('x', 'f')]), ev('user', [text('hi')])]),
    ).toBeUndefined();
    expect(
      findResumedCaller([ev('bot', [call('x', 'f')]), ev('user', [resp('y', 'f', {})])]),
    ).toBeUndefined();
    expect(findResumedCaller([])).toBeUndefined();
  });
});

describe('buildContents: repeated call ids', () => {
  it('pairs each response with the latest earlier call of that id, per agent', () => {
    const events = [
      ev('user', [text('one')]),
      ev('bot', [call('call-1', 'f', { n: 1 })]),
      ev('bot', [resp('call-1', 'f', { r: 1 })]),
      ev('other', [resp('call-1', 'f', { r: 'not yours' })]),
      ev('user', [text('two')]),
      ev('bot', [call('call-1', 'f', { n: 2 })]),
      ev('bot', [resp('call-1', 'f', { r: 2 })]),
    ];
    const contents = buildContents(events, { agentName: 'bot' });
    expect(contents.map((c) => JSON.stringify(c.parts[0]))).toEqual([
      '{"text":"one"}',
      '{"functionCall":{"id":"call-1","name":"f","args":{"n":1}}}',
      '{"functionResponse":{"id":"call-1","name":"f","response":{"r":1}}}',
      '{"text":"For context:"}',
      '{"text":"two"}',
      '{"functionCall":{"id":"call-1","name":"f","args":{"n":2}}}',
      '{"functionResponse":{"id":"call-1","name":"f","response":{"r":2}}}',
    ]);
  });
});
