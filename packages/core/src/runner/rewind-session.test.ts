import { describe, expect, it } from 'vitest';

import { LlmAgent } from '../agents/llm-agent';
import { getText, userContent } from '../content';
import { InvocationNotFoundError } from '../errors/invocation-not-found-error';
import { SessionNotFoundError } from '../errors/session-not-found-error';
import { createEvent, type Event } from '../events';
import { withoutRewoundEvents } from '../history/rewound-events';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { FakeModel } from '../testing/fake-model';
import { findAgentToRun } from './find-agent-to-run';
import { rewindStateDelta } from './rewind-session';
import { Runner } from './runner';

async function drain(events: AsyncIterable<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of events) out.push(event);
  return out;
}

function said(invocationId: string, author: string, text?: string, extra = {}): Event {
  return createEvent({
    invocationId,
    author,
    ...(text === undefined ? {} : { content: { role: 'model', parts: [{ text }] } }),
    ...extra,
  });
}

function rewindTo(target: string): Event {
  return createEvent({
    invocationId: `r-${target}`,
    author: 'user',
    actions: { rewindBeforeInvocationId: target },
  });
}

describe('withoutRewoundEvents', () => {
  it('returns the very same array when nothing was rewound', () => {
    const events = [said('a', 'user', 'hi'), said('a', 'bot', 'hello')];
    expect(withoutRewoundEvents(events)).toBe(events);
  });

  it('drops a rewind naming an unknown invocation, and only it', () => {
    const events = [said('a', 'user', 'hi'), rewindTo('zzz'), said('b', 'user', 'again')];
    expect(withoutRewoundEvents(events).map((event) => event.invocationId)).toEqual(['a', 'b']);
  });

  it('keeps what came after the rewind, and applies later rewinds first', () => {
    const events = [
      said('a', 'user', '1'),
      said('b', 'user', '2'),
      rewindTo('b'),
      said('c', 'user', '3'),
      said('d', 'user', '4'),
      rewindTo('d'),
      said('e', 'user', '5'),
    ];
    expect(withoutRewoundEvents(events).map((event) => event.invocationId)).toEqual([
      'a',
      'c',
      'e',
    ]);
  });
});

describe('rewindStateDelta', () => {
  it('restores changed keys, nulls new ones and leaves untouched and shared keys alone', () => {
    const events = [
      said('a', 'x', undefined, { actions: { stateDelta: { color: 'red', size: 1 } } }),
      said('b', 'x', undefined, {
        actions: { stateDelta: { color: 'blue', added: true, 'app:n': 2, 'user:m': 3 } },
      }),
    ];
    const state = {
      initial: 'kept',
      color: 'blue',
      size: 1,
      added: true,
      'app:n': 2,
      'user:m': 3,
    };
    expect(rewindStateDelta(events, 1, state)).toEqual({ color: 'red', added: null });
  });
});

describe('Runner.rewind', () => {
  it('routes the next turn as if the rewound transfer never happened', async () => {
    const billing = new LlmAgent({
      name: 'billing',
      model: new FakeModel({ responses: () => 'b' }),
    });
    const root = new LlmAgent({
      name: 'root',
      model: new FakeModel({ responses: () => 'r' }),
      subAgents: [billing],
    });
    const service = new InMemorySessionService();
    const session = await service.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    for (const event of [
      said('one', 'user', 'hello'),
      said('one', 'root', 'hi'),
      said('two', 'user', 'my invoice'),
      said('two', 'billing', 'here it is'),
    ])
      await service.appendEvent({ session, event });
    expect(findAgentToRun(session, root).name).toBe('billing');
    const runner = new Runner({ appName: 'app', agent: root, sessionService: service });
    await runner.rewind({ userId: 'u', sessionId: 's', rewindBeforeInvocationId: 'two' });
    const stored = await service.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    expect(findAgentToRun(stored!, root).name).toBe('root');
  });

  it('shows the model no rewound event in a long session (the incremental contents path)', async () => {
    const model = new FakeModel({ responses: (_request, index) => `answer ${index}` });
    const runner = new Runner({
      appName: 'app',
      agent: new LlmAgent({ name: 'echo', model }),
      autoCreateSession: true,
    });
    const turn = { userId: 'u', sessionId: 's' };
    const invocations: string[] = [];
    for (let index = 0; index < 20; index++) {
      const events = await drain(runner.run({ ...turn, newMessage: userContent(`q${index}`) }));
      invocations.push(events[0]!.invocationId);
    }
    await runner.rewind({ ...turn, rewindBeforeInvocationId: invocations[15]! });
    const before = model.requests.length;
    await drain(runner.run({ ...turn, newMessage: userContent('again') }));
    const texts = model.requests[before]!.contents.map((content) => getText(content));
    expect(texts).toHaveLength(31);
    expect(texts.slice(-3)).toEqual(['q14', 'answer 14', 'again']);
    // And the turn after, built from what the previous one remembered.
    await drain(runner.run({ ...turn, newMessage: userContent('more') }));
    const next = model.requests.at(-1)!.contents.map((content) => getText(content));
    expect(next).toHaveLength(33);
    expect(next.slice(-4)).toEqual(['answer 14', 'again', 'answer 20', 'more']);
    // Built from the contents remembered for the previous turn, not rendered again.
    expect(model.requests.at(-1)!.contents[0]).toBe(model.requests[before]!.contents[0]);
  });

  it('refuses to resume a rewound invocation, and to rewind a missing session', async () => {
    const runner = new Runner({
      appName: 'app',
      agent: new LlmAgent({ name: 'echo', model: new FakeModel({ responses: () => 'ok' }) }),
      autoCreateSession: true,
    });
    const turn = { userId: 'u', sessionId: 's' };
    const events = await drain(runner.run({ ...turn, newMessage: userContent('hi') }));
    const invocationId = events[0]!.invocationId;
    await runner.rewind({ ...turn, rewindBeforeInvocationId: invocationId });
    await expect(drain(runner.resume({ ...turn, invocationId }))).rejects.toSatisfy(
      InvocationNotFoundError.isInstance,
    );
    await expect(
      runner.rewind({ userId: 'u', sessionId: 'nope', rewindBeforeInvocationId: invocationId }),
    ).rejects.toSatisfy(SessionNotFoundError.isInstance);
  });
});
