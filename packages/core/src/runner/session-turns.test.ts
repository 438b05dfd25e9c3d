import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { APP, collect, SESSION, USER } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import { getText, userContent, type Content } from '../content';
import type { Event } from '../events';
import type { LlmRequest } from '../models';
import { BasePlugin } from '../plugins/base-plugin';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { FakeModel } from '../testing/fake-model';
import { FunctionTool } from '../tools/function-tool';
import { Runner } from './runner';
import { SessionTurns } from './session-turns';

/** A promise with its resolver, to hold a tool call until the test lets it go. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Lets every pending promise callback run (the runner's awaits are all promise-based). */
async function settle(): Promise<void> {
  for (let index = 0; index < 20; index++) await new Promise((resolve) => setImmediate(resolve));
}

function lastUserText(request: LlmRequest): string {
  const last = request.contents.at(-1) as Content;
  return last.parts.map((part) => part.text ?? '').join('');
}

/**
 * An agent whose model calls `hold` when the user says "hold" (the tool waits for the gate whose
 * name is the session id), and otherwise answers "re: <message>".
 */
async function harness() {
  const gates = new Map<string, ReturnType<typeof gate>>();
  const gateFor = (name: string) => {
    if (!gates.has(name)) gates.set(name, gate());
    return gates.get(name)!;
  };
  const entered: string[] = [];
  const hold = new FunctionTool({
    name: 'hold',
    description: 'Waits until released.',
    parameters: z.object({ name: z.string() }),
    execute: async ({ name }) => {
      entered.push(name);
      await gateFor(name).opened;
      return { released: name };
    },
  });
  const model = new FakeModel({
    responses: (request) => {
      const last = request.contents.at(-1) as Content;
      const response = last.parts.find((part) => part.functionResponse)?.functionResponse;
      if (response) return `released ${(response.response as { released: string }).released}`;
      const text = lastUserText(request);
      if (text.startsWith('hold ')) {
        return { functionCalls: [{ name: 'hold', args: { name: text.slice(5) } }] };
      }
      return `re: ${text}`;
    },
  });
  const agent = new LlmAgent({ name: 'agent', model, tools: [hold] });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP, agent, sessionService, autoCreateSession: true });
  const run = (text: string, sessionId = SESSION, signal?: AbortSignal) =>
    collect(runner.run({ userId: USER, sessionId, newMessage: userContent(text), signal }));
  const storedTexts = async (sessionId = SESSION) => {
    const session = await sessionService.getSession({ appName: APP, userId: USER, sessionId });
    return (session?.events ?? []).map(
      (event) => `${event.author}: ${getText(event.content) || describeCall(event)}`,
    );
  };
  return { run, runner, model, gateFor, entered, storedTexts, sessionService };
}

function describeCall(event: Event): string {
  const part = event.content?.parts[0];
  if (part?.functionCall) return `call ${part.functionCall.name}`;
  if (part?.functionResponse) return `response ${part.functionResponse.name}`;
  return '';
}

describe('Runner: runs on one session take turns', () => {
  it('makes a second run wait for the first, then see everything the first stored', async () => {
    const h = await harness();
    const first = h.run(`hold ${SESSION}`);
    await settle();
    expect(h.entered).toEqual([SESSION]);

    const second = h.run('and then?');
    await settle();
    // The second run has not even stored its message: it waits for the first.
    expect(await h.storedTexts()).toEqual(['user: hold s1', 'agent: call hold']);

    h.gateFor(SESSION).open();
    const [firstEvents, secondEvents] = await Promise.all([first, second]);
    expect(getText(firstEvents.at(-1)!.content)).toBe('released s1');
    expect(getText(secondEvents.at(-1)!.content)).toBe('re: and then?');
    expect(await h.storedTexts()).toEqual([
      'user: hold s1',
      'agent: call hold',
      'agent: response hold',
      'agent: released s1',
      'user: and then?',
      'agent: re: and then?',
    ]);
    // The second run's model saw the whole first turn.
    const secondRequest = h.model.requests.at(-1)!;
    expect(secondRequest.contents.map((content) => content.role)).toEqual([
      'user',
      'model',
      'user',
      'model',
      'user',
    ]);
  });

  it('runs many queued runs in arrival order, none refused as stale', async () => {
    const h = await harness();
    const first = h.run(`hold ${SESSION}`);
    await settle();
    const queued = ['one', 'two', 'three'].map((text) => h.run(text));
    await settle();
    h.gateFor(SESSION).open();
    await Promise.all([first, ...queued]);
    const users = (await h.storedTexts()).filter((line) => line.startsWith('user: '));
    expect(users).toEqual(['user: hold s1', 'user: one', 'user: two', 'user: three']);
  });

  it('creates a missing session once when two runs start together, and both succeed', async () => {
    const h = await harness();
    const results = await Promise.allSettled([h.run('a', 'fresh'), h.run('b', 'fresh')]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(await h.storedTexts('fresh')).toEqual([
      'user: a',
      'agent: re: a',
      'user: b',
      'agent: re: b',
    ]);
  });

  it('keeps runs on different sessions concurrent', async () => {
    const h = await harness();
    // Each tool call waits for the other session's gate: only concurrent runs can finish.
    const a = h.run('hold b-session', 'a-session');
    const b = h.run('hold a-session', 'b-session');
    await settle();
    expect([...h.entered].sort()).toEqual(['a-session', 'b-session']);
    h.gateFor('a-session').open();
    h.gateFor('b-session').open();
    await Promise.all([a, b]);
  });

  it('ends a waiting run with no event and nothing stored when its signal aborts', async () => {
    const h = await harness();
    const first = h.run(`hold ${SESSION}`);
    await settle();
    const controller = new AbortController();
    const waiting = h.run('never stored', SESSION, controller.signal);
    await settle();
    controller.abort();
    expect(await waiting).toEqual([]);
    const third = h.run('after');
    h.gateFor(SESSION).open();
    await Promise.all([first, third]);
    const texts = await h.storedTexts();
    expect(texts).not.toContain('user: never stored');
    expect(texts.slice(-2)).toEqual(['user: after', 'agent: re: after']);
  });

  it('passes the turn on when a run is closed early or fails', async () => {
    const h = await harness();
    // Closed early: the consumer stops after the first event.
    for await (const event of h.runner.run({
      userId: USER,
      sessionId: SESSION,
      newMessage: userContent('first'),
    })) {
      expect(event.author).toBe('agent');
      break;
    }
    expect(getText((await h.run('second')).at(-1)!.content)).toBe('re: second');

    // Failed: a plugin throws before the agent runs.
    class FailOnce extends BasePlugin {
      failed = false;
      override beforeRun() {
        if (!this.failed) {
          this.failed = true;
          throw new Error('boom');
        }
        return undefined;
      }
    }
    const failing = new Runner({
      appName: APP,
      agent: h.runner.agent,
      sessionService: h.sessionService,
      plugins: [new FailOnce('fail-once')],
    });
    const start = (text: string) =>
      collect(failing.run({ userId: USER, sessionId: SESSION, newMessage: userContent(text) }));
    const results = await Promise.allSettled([start('fails'), start('works')]);
    expect(results[0]!.status).toBe('rejected');
    expect(results[1]!.status).toBe('fulfilled');
  });
});

describe('SessionTurns', () => {
  it('frees a key once its holder leaves with nobody waiting', async () => {
    const turns = new SessionTurns();
    expect(turns.enter('k', undefined)).toBe(true);
    const next = turns.enter('k', undefined);
    expect(next).toBeInstanceOf(Promise);
    turns.leave('k');
    await expect(next).resolves.toBe(true);
    turns.leave('k');
    expect(turns.enter('k', undefined)).toBe(true);
  });

  it('never hands the turn to a caller whose signal aborted, nor waits on an aborted signal', async () => {
    const turns = new SessionTurns();
    expect(turns.enter('k', undefined)).toBe(true);
    const controller = new AbortController();
    const aborted = turns.enter('k', controller.signal);
    const later = turns.enter('k', undefined);
    controller.abort();
    await expect(aborted).resolves.toBe(false);
    turns.leave('k');
    await expect(later).resolves.toBe(true);
    await expect(turns.enter('k', AbortSignal.abort())).resolves.toBe(false);
  });
});
