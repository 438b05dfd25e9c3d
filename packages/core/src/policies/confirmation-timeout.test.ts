import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { LlmAgent } from '../agents/llm-agent';
import { SequentialAgent } from '../agents/sequential-agent';
import { userContent } from '../content';
import { InvalidArgumentError } from '../errors';
import type { Event } from '../events';
import { Runner } from '../runner/runner';
import { InMemorySessionService } from '../sessions';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCall } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';
import { confirmationDeadline, confirmationResponse } from './confirmation';
import { findPendingConfirmations } from './confirmation-expiry';
import { ConfirmationPolicy, type ConfirmationPolicyOptions } from './confirmation-policy';

async function collect(events: AsyncIterable<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of events) out.push(event);
  return out;
}

async function waitPast(time: number): Promise<void> {
  while (Date.now() <= time) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Polls `check` every 20 ms until it returns a value, for up to `ms` (generous: busy machines). */
async function until<T>(check: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new TypeError(`Nothing after ${ms} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const runners: Runner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.close()));
});

/** A cashier whose `pay` and `refund` tools need a human; `policy` sets the timeouts. */
function shop(
  gate: { policy: Omit<ConfirmationPolicyOptions, 'tools'> } | { toolTimeoutMs: number },
) {
  const executed: string[] = [];
  const tool = (name: string) =>
    new FunctionTool({
      name,
      description: `${name} an amount.`,
      parameters: z.object({ amount: z.number() }),
      ...('toolTimeoutMs' in gate
        ? { requireConfirmation: true, confirmationTimeoutMs: gate.toolTimeoutMs }
        : {}),
      execute: ({ amount }) => {
        executed.push(`${name} ${amount}`);
        return { done: amount };
      },
    });
  const model = new FakeModel({
    responses: (request, index) => {
      if (index === 0) return fakeFunctionCall('pay', { amount: 42 }, 'c1');
      const last = request.contents.at(-1)?.parts[0];
      return `Outcome: ${JSON.stringify(last?.functionResponse?.response ?? last?.text)}`;
    },
  });
  const agent = new LlmAgent({ name: 'cashier', model, tools: [tool('pay'), tool('refund')] });
  const sessionService = new InMemorySessionService();
  const policies =
    'policy' in gate ? [new ConfirmationPolicy({ tools: ['pay', 'refund'], ...gate.policy })] : [];
  const runner = (confirmationTimers = true) => {
    const made = new Runner({
      appName: 'shop',
      agent,
      sessionService,
      policies,
      autoCreateSession: true,
      confirmationTimers,
    });
    runners.push(made);
    return made;
  };
  const events = async () =>
    (await sessionService.getSession({ appName: 'shop', userId: 'u', sessionId: 's' }))?.events ??
    [];
  return { executed, model, runner, events, sessionService, policies, agent };
}

const turn = { userId: 'u', sessionId: 's' };

describe('confirmation deadlines', () => {
  it('stores the deadline with the request: the policy timeout, or the per-tool one', async () => {
    for (const [policy, expected] of [
      [{ timeoutMs: 60_000 }, 60_000],
      [{ timeoutMs: 60_000, toolTimeoutsMs: { pay: 5_000 } }, 5_000],
    ] as const) {
      const app = shop({ policy });
      const before = Date.now();
      const [request] = (
        await collect(app.runner(false).run({ ...turn, newMessage: userContent('pay') }))
      ).slice(-1);
      const call = request?.content?.parts[0]?.functionCall;
      expect(call?.args?.expiresAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/));
      const deadline = confirmationDeadline(call?.args)!;
      expect(deadline).toBeGreaterThanOrEqual(before + expected);
      expect(deadline).toBeLessThanOrEqual(Date.now() + expected);
      // The stored confirmation keeps the official ADKs' shape (they refuse unknown members).
      expect(Object.keys(request!.actions.requestedToolConfirmations.c1!).sort()).toEqual([
        'confirmed',
        'hint',
        'payload',
      ]);
    }
  });

  it('denies an approval that arrives after the deadline, and runs nothing', async () => {
    const app = shop({ toolTimeoutMs: 50 });
    const paused = await collect(
      app.runner(false).run({ ...turn, newMessage: userContent('pay') }),
    );
    const request = paused.at(-1)?.content?.parts[0]?.functionCall;
    await waitPast(confirmationDeadline(request?.args)!);
    const late = await collect(
      app.runner(false).run({ ...turn, newMessage: confirmationResponse(request!.id!, true) }),
    );
    expect(app.executed).toEqual([]);
    expect(late[0]?.content?.parts[0]?.functionResponse).toMatchObject({
      id: 'c1',
      name: 'pay',
      response: { error: { code: 'CONFIRMATION_EXPIRED' } },
    });
    expect(late.at(-1)?.content?.parts[0]?.text).toContain('CONFIRMATION_EXPIRED');
  });

  it('runs a call approved before its deadline', async () => {
    const app = shop({ policy: { timeoutMs: 60_000 } });
    const paused = await collect(app.runner().run({ ...turn, newMessage: userContent('pay') }));
    const id = paused.at(-1)?.content?.parts[0]?.functionCall?.id;
    await collect(app.runner().run({ ...turn, newMessage: confirmationResponse(id!, true) }));
    expect(app.executed).toEqual(['pay 42']);
  });

  it('denies an unanswered call by itself at the deadline, and the model tells the user', async () => {
    const app = shop({ policy: { timeoutMs: 100 } });
    await collect(app.runner().run({ ...turn, newMessage: userContent('pay') }));
    // Nobody answers: the Runner's timer denies the call and the agent goes on.
    const reply = await until(async () =>
      (await app.events()).find((event) => event.content?.parts[0]?.text?.startsWith('Outcome')),
    );
    expect(reply.content?.parts[0]?.text).toContain('CONFIRMATION_EXPIRED');
    expect(app.executed).toEqual([]);
    expect(findPendingConfirmations(await app.events())).toEqual([]);
    // The framework's answer says why it closed the request.
    const closing = (await app.events()).find((event) =>
      event.content?.parts.some(
        (part) => part.functionResponse?.name === 'adk_request_confirmation',
      ),
    );
    expect(closing?.content?.parts[0]?.functionResponse?.response).toEqual({
      confirmed: false,
      payload: { expired: true },
    });
  });

  it('resumes the workflow around an expired call: the next agent of the sequence runs', async () => {
    const app = shop({ policy: { timeoutMs: 100 } });
    const notifier = new LlmAgent({
      name: 'notifier',
      model: new FakeModel({ responses: ['Customer notified.'] }),
    });
    const runner = new Runner({
      appName: 'shop',
      agent: new SequentialAgent({ name: 'checkout', subAgents: [app.agent, notifier] }),
      sessionService: app.sessionService,
      policies: app.policies,
      autoCreateSession: true,
    });
    runners.push(runner);
    await collect(runner.run({ ...turn, newMessage: userContent('pay') }));
    const notified = await until(async () =>
      (await app.events()).find((event) => event.author === 'notifier'),
    );
    expect(notified.content?.parts[0]?.text).toBe('Customer notified.');
    // It ran after the denial, in the turn the expiry started (not before the pause).
    const events = await app.events();
    const denied = events.findIndex(
      (event) =>
        (event.content?.parts[0]?.functionResponse?.response as { error?: { code?: string } })
          ?.error?.code === 'CONFIRMATION_EXPIRED',
    );
    expect(denied).toBeGreaterThan(0);
    expect(events.findIndex((event) => event.id === notified.id)).toBeGreaterThan(denied);
    expect(app.executed).toEqual([]);
  });

  it('arms no timer once the Runner is closed', async () => {
    const app = shop({ policy: { timeoutMs: 100 } });
    const runner = app.runner();
    const paused = await collect(runner.run({ ...turn, newMessage: userContent('pay') }));
    await runner.close();
    await waitPast(confirmationDeadline(paused.at(-1)?.content?.parts[0]?.functionCall?.args)!);
    // Well past the deadline and the timer's margin: still paused, nothing ran.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await app.events()).at(-1)?.longRunningToolIds).toHaveLength(1);
    expect(app.model.requests).toHaveLength(1);
  });

  it('expireConfirmations does nothing before the deadline and denies the call at once after it', async () => {
    const app = shop({ policy: { timeoutMs: 60_000, toolTimeoutsMs: { pay: 50 } } });
    const paused = await collect(
      app.runner(false).run({ ...turn, newMessage: userContent('pay') }),
    );
    const runner = app.runner(false);
    expect(await collect(runner.expireConfirmations(turn))).toEqual([]);
    await waitPast(confirmationDeadline(paused.at(-1)?.content?.parts[0]?.functionCall?.args)!);
    const expired = await collect(runner.expireConfirmations(turn));
    expect(expired.map((event) => event.author)).toEqual(['cashier', 'cashier']);
    expect(expired[0]?.content?.parts[0]?.functionResponse?.response).toMatchObject({
      error: { code: 'CONFIRMATION_EXPIRED' },
    });
    expect(await collect(runner.expireConfirmations({ userId: 'u', sessionId: 'none' }))).toEqual(
      [],
    );
  });

  it('refuses timeouts that are not a positive number of milliseconds', () => {
    for (const timeoutMs of [0, -1, Number.NaN, Infinity]) {
      expect(() => new ConfirmationPolicy({ tools: ['pay'], timeoutMs })).toThrow(
        InvalidArgumentError,
      );
      expect(
        () => new ConfirmationPolicy({ tools: ['pay'], toolTimeoutsMs: { pay: timeoutMs } }),
      ).toThrow(/toolTimeoutsMs\.pay must be a finite number/);
      expect(
        () =>
          new FunctionTool({
            name: 'pay',
            description: 'Pay.',
            requireConfirmation: true,
            confirmationTimeoutMs: timeoutMs,
            execute: () => 'paid',
          }),
      ).toThrow(/FunctionTool "pay": confirmationTimeoutMs/);
    }
  });
});
