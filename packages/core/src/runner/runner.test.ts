import { describe, expect, it } from 'vitest';

import { APP, collect, SESSION, setup, USER } from '../../test/helpers';
import { BaseAgent } from '../agents/base-agent';
import type { InvocationContext } from '../invocation/invocation-context';
import { LlmAgent } from '../agents/llm-agent';
import { getText, modelContent, userContent } from '../content';
import { InvalidArgumentError } from '../errors/invalid-argument-error';
import { SessionNotFoundError } from '../errors/session-not-found-error';
import { createEvent, type Event } from '../events';
import type { GenerateOptions, LlmRequest, LlmResponse, Model } from '../models';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import type { AppendEventRequest } from '../sessions/session-service';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCall } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';
import { createRunConfig } from '../context/run-config';
import { Runner } from './runner';

describe('Runner sessions', () => {
  it('throws SessionNotFoundError for a missing session unless autoCreateSession is set', async () => {
    const agent = new LlmAgent({ name: 'agent', model: new FakeModel(['hi']) });
    const strict = new Runner({ appName: APP, agent });
    await expect(
      collect(strict.run({ userId: USER, sessionId: 'nope', newMessage: userContent('x') })),
    ).rejects.toSatisfy(
      (error) =>
        SessionNotFoundError.isInstance(error) &&
        (error as SessionNotFoundError).sessionId === 'nope',
    );
    const sessionService = new InMemorySessionService();
    const lenient = new Runner({ appName: APP, agent, sessionService, autoCreateSession: true });
    const events = await collect(
      lenient.run({ userId: USER, sessionId: 'new', newMessage: userContent('x') }),
    );
    expect(getText(events[0]!.content)).toBe('hi');
    const stored = await sessionService.getSession({
      appName: APP,
      userId: USER,
      sessionId: 'new',
    });
    expect(stored?.events.map((e) => e.author)).toEqual(['user', 'agent']);
  });

  it('creates a missing session once when two runs start together', async () => {
    const sessionService = new InMemorySessionService();
    const agent = new LlmAgent({ name: 'agent', model: new FakeModel({ responses: () => 'hi' }) });
    const runner = new Runner({ appName: APP, agent, sessionService, autoCreateSession: true });
    const start = (text: string) =>
      collect(runner.run({ userId: USER, sessionId: 'fresh', newMessage: userContent(text) }));
    const results = await Promise.allSettled([start('a'), start('b')]);
    // The runs take turns on the session: the second finds the session the first created.
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    const stored = await sessionService.listSessions({ appName: APP, userId: USER });
    expect(stored.sessions.map((s) => s.id)).toEqual(['fresh']);
  });

  it('stores the user message with its state delta before the agent runs', async () => {
    let seen: unknown;
    const agent = new LlmAgent({
      name: 'agent',
      model: new FakeModel(['ok']),
      beforeModelCallback: ({ context }) => {
        seen = context.state.get('user:lang');
      },
    });
    const { run, session } = await setup(agent);
    await run('bonjour', { stateDelta: { 'user:lang': 'fr' } });
    const stored = await session();
    expect(stored.events[0]).toMatchObject({
      author: 'user',
      content: { role: 'user', parts: [{ text: 'bonjour' }] },
    });
    expect(stored.events[0]!.actions.stateDelta).toEqual({ 'user:lang': 'fr' });
    expect(seen).toBe('fr');
  });

  it('commits every complete event before yielding it', async () => {
    const sessionService = new InMemorySessionService();
    await sessionService.createSession({ appName: APP, userId: USER, sessionId: SESSION });
    const appended: string[] = [];
    const original = sessionService.appendEvent.bind(sessionService);
    sessionService.appendEvent = async (request: AppendEventRequest) => {
      appended.push(request.event.id);
      return original(request);
    };
    const model = new FakeModel([fakeFunctionCall('t'), 'done']);
    const tool = new FunctionTool({ name: 't', description: 't', execute: () => 'x' });
    const runner = new Runner({
      appName: APP,
      agent: new LlmAgent({ name: 'agent', model, tools: [tool] }),
      sessionService,
    });
    for await (const event of runner.run({
      userId: USER,
      sessionId: SESSION,
      newMessage: userContent('go'),
    })) {
      expect(appended).toContain(event.id);
    }
    expect(appended).toHaveLength(4);
  });

  it('never persists temp: state, while the rest of the invocation sees it', async () => {
    let seenByTool: unknown;
    const write = new FunctionTool({
      name: 'write',
      description: 'w',
      execute: (_args, ctx) => {
        ctx.state.set('temp:scratch', 'draft');
        ctx.state.set('kept', 'yes');
        return 'ok';
      },
    });
    const read = new FunctionTool({
      name: 'read',
      description: 'r',
      execute: (_args, ctx) => {
        seenByTool = ctx.state.get('temp:scratch');
        return 'ok';
      },
    });
    const model = new FakeModel([
      fakeFunctionCall('write'),
      fakeFunctionCall('read'),
      'Draft is {temp:scratch}',
    ]);
    const agent = new LlmAgent({
      name: 'agent',
      model,
      tools: [write, read],
      instruction: 'Scratch: {temp:scratch?}',
    });
    const { run, sessionService } = await setup(agent);
    const events = await run('go');
    expect(seenByTool).toBe('draft');
    expect(events.some((e) => 'temp:scratch' in e.actions.stateDelta)).toBe(false);
    expect(model.requests[2]!.systemInstruction).toContain('Scratch: draft');
    const stored = await sessionService.getSession({
      appName: APP,
      userId: USER,
      sessionId: SESSION,
    });
    expect(stored!.state).toEqual({ kept: 'yes' });
    expect(stored!.events.some((e) => 'temp:scratch' in e.actions.stateDelta)).toBe(false);
  });

  it('rejects a message without parts and an invalid run config', async () => {
    const { runner } = await setup(new LlmAgent({ name: 'agent', model: new FakeModel() }));
    await expect(
      collect(
        runner.run({ userId: USER, sessionId: SESSION, newMessage: { role: 'user', parts: [] } }),
      ),
    ).rejects.toThrow(InvalidArgumentError);
    await expect(
      collect(
        runner.run({
          userId: USER,
          sessionId: SESSION,
          newMessage: userContent('x'),
          runConfig: { maxLlmCalls: -1 },
        }),
      ),
    ).rejects.toThrow(/maxLlmCalls/);
    expect(createRunConfig()).toEqual({ streamingMode: 'none', maxLlmCalls: 500 });
  });
});

describe('Runner streaming and abort', () => {
  it('yields partial events while streaming and stores one aggregated final event', async () => {
    const model = new FakeModel([['It is ', 'sunny ', 'today.']]);
    const { run, session } = await setup(new LlmAgent({ name: 'agent', model }));
    const events = await run('weather?', { runConfig: { streamingMode: 'sse' } });
    expect(events.map((e) => [e.partial ?? false, getText(e.content)])).toEqual([
      [true, 'It is '],
      [true, 'sunny '],
      [true, 'today.'],
      [false, 'It is sunny today.'],
    ]);
    const stored = (await session()).events;
    expect(stored.map((e) => getText(e.content))).toEqual(['weather?', 'It is sunny today.']);
    expect(stored.some((e) => e.partial)).toBe(false);
  });

  it('does not stream without sse', async () => {
    const model = new FakeModel([['a', 'b']]);
    const { run } = await setup(new LlmAgent({ name: 'agent', model }));
    const events = await run('x');
    expect(events.map((e) => [e.partial ?? false, getText(e.content)])).toEqual([[false, 'ab']]);
  });

  it('ends promptly when aborted mid-stream, storing nothing partial', async () => {
    const controller = new AbortController();
    let chunksServed = 0;
    let closed = false;
    // A model that would stream forever; it stops only through the signal.
    const endless: Model = {
      name: 'endless',
      async *generate(_request: LlmRequest, options: GenerateOptions): AsyncGenerator<LlmResponse> {
        try {
          for (;;) {
            options.signal?.throwIfAborted();
            chunksServed++;
            yield { content: { role: 'model', parts: [{ text: 'la ' }] }, partial: true };
          }
        } finally {
          closed = true;
        }
      },
    };
    const { runner, session } = await setup(new LlmAgent({ name: 'agent', model: endless }));
    const seen: Event[] = [];
    for await (const event of runner.run({
      userId: USER,
      sessionId: SESSION,
      newMessage: userContent('sing'),
      runConfig: { streamingMode: 'sse' },
      signal: controller.signal,
    })) {
      seen.push(event);
      if (seen.length === 2) controller.abort();
    }
    expect(seen).toHaveLength(2);
    expect(seen.every((e) => e.partial)).toBe(true);
    expect(chunksServed).toBeLessThanOrEqual(3);
    const stored = (await session()).events;
    expect(stored.map((e) => e.author)).toEqual(['user']);
    // The model's stream was closed, not left running.
    expect(closed).toBe(true);
  });

  it('stops between steps when aborted during a tool call, keeping the session consistent', async () => {
    const controller = new AbortController();
    const tool = new FunctionTool({
      name: 'slow',
      description: 's',
      execute: () => {
        controller.abort();
        return 'done';
      },
    });
    const model = new FakeModel([fakeFunctionCall('slow'), 'never']);
    const { runner, session } = await setup(new LlmAgent({ name: 'agent', model, tools: [tool] }));
    const events = await collect(
      runner.run({
        userId: USER,
        sessionId: SESSION,
        newMessage: userContent('go'),
        signal: controller.signal,
      }),
    );
    expect(model.callCount).toBe(1);
    expect(events.length).toBeLessThanOrEqual(2);
    const stored = await session();
    expect(stored.events.map((e) => e.id)).toEqual([
      stored.events[0]!.id,
      ...events.map((e) => e.id),
    ]);
  });

  it('does not wait for a tool that ignores the abort', async () => {
    const controller = new AbortController();
    const stuck = new FunctionTool({
      name: 'stuck',
      description: 's',
      execute: () => {
        controller.abort();
        return new Promise(() => undefined);
      },
    });
    const model = new FakeModel([fakeFunctionCall('stuck'), 'never']);
    const { runner, session } = await setup(new LlmAgent({ name: 'agent', model, tools: [stuck] }));
    const events = await collect(
      runner.run({
        userId: USER,
        sessionId: SESSION,
        newMessage: userContent('go'),
        signal: controller.signal,
      }),
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.content?.parts[0]?.functionCall?.name).toBe('stuck');
    expect((await session()).events).toHaveLength(2);
  });

  it('does not wait for a model that ignores the abort', async () => {
    const controller = new AbortController();
    const deaf: Model = {
      name: 'deaf',
      // eslint-disable-next-line require-yield
      async *generate(): AsyncGenerator<LlmResponse> {
        queueMicrotask(() => controller.abort());
        await new Promise(() => undefined);
      },
    };
    const { runner, session } = await setup(new LlmAgent({ name: 'agent', model: deaf }));
    const events = await collect(
      runner.run({
        userId: USER,
        sessionId: SESSION,
        newMessage: userContent('go'),
        signal: controller.signal,
      }),
    );
    expect(events).toEqual([]);
    expect((await session()).events.map((e) => e.author)).toEqual(['user']);
  });

  it('returns immediately for an already aborted signal', async () => {
    const model = new FakeModel({ strict: true });
    const { runner, session } = await setup(new LlmAgent({ name: 'agent', model }));
    const events = await collect(
      runner.run({
        userId: USER,
        sessionId: SESSION,
        newMessage: userContent('x'),
        signal: AbortSignal.abort(),
      }),
    );
    expect(events).toEqual([]);
    expect((await session()).events).toEqual([]);
  });
});

describe('Runner agent selection', () => {
  function tree() {
    const model = new FakeModel({ responses: (_request, index) => `answer ${index}` });
    const child = new LlmAgent({ name: 'child', model });
    const locked = new LlmAgent({ name: 'locked', model, disallowTransferToParent: true });
    const root = new LlmAgent({ name: 'root', model, subAgents: [child, locked] });
    return { root, model };
  }

  async function lastAuthor(previousAuthor: string | undefined): Promise<string> {
    const { root } = tree();
    const { run, sessionService } = await setup(root);
    if (previousAuthor) {
      const stored = (await sessionService.getSession({
        appName: APP,
        userId: USER,
        sessionId: SESSION,
      }))!;
      await sessionService.appendEvent({
        session: stored,
        event: createEvent({
          invocationId: 'e-0',
          author: previousAuthor,
          content: modelContent('earlier'),
        }),
      });
    }
    const events = await run('next');
    return events.at(-1)!.author;
  }

  it('continues with the agent that answered last when it may transfer back', async () => {
    expect(await lastAuthor('child')).toBe('child');
  });
  it('falls back to the root for a non-routable agent, an unknown author or a new session', async () => {
    expect(await lastAuthor('locked')).toBe('root');
    expect(await lastAuthor('somebody_else')).toBe('root');
    expect(await lastAuthor(undefined)).toBe('root');
  });
});

describe('Runner.close', () => {
  it('closes the toolsets of the whole tree and the plugins', async () => {
    const closed: string[] = [];
    const toolset = {
      name: 'mcp',
      getTools: async () => [],
      close: async () => void closed.push('mcp'),
    };
    const child = new LlmAgent({ name: 'child', tools: [toolset] });
    const root = new LlmAgent({ name: 'root', tools: [toolset], subAgents: [child] });
    const runner = new Runner({ appName: APP, agent: root });
    await runner.close();
    expect(closed).toEqual(['mcp']);
  });
});

describe('custom agents', () => {
  it('runs a BaseAgent subclass and stores its events', async () => {
    class Echo extends BaseAgent {
      protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
        yield this.createEvent(ctx, modelContent(`echo: ${getText(ctx.userContent)}`), undefined);
      }
    }
    const { run, session } = await setup(new Echo({ name: 'echo' }));
    const events = await run('ping');
    expect(getText(events[0]!.content)).toBe('echo: ping');
    expect((await session()).events.map((e) => e.author)).toEqual(['user', 'echo']);
  });
});
