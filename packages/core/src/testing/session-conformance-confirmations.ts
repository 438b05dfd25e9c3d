import { expect, it } from 'vitest';
import { z } from 'zod';

import { LlmAgent } from '../agents/llm-agent';
import { userContent } from '../content';
import type { Event } from '../events';
import { confirmationDeadline, confirmationResponse } from '../policies/confirmation';
import { ConfirmationPolicy } from '../policies/confirmation-policy';
import { Runner } from '../runner/runner';
import { FunctionTool } from '../tools/function-tool';
import type { ConformanceContext } from './session-conformance-context';
import { FakeModel } from './fake-model';
import { fakeFunctionCall } from './fake-model-responses';

async function drain(events: AsyncIterable<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** Resolves once the wall clock is past `time` (ms since the epoch). */
async function waitPast(time: number): Promise<void> {
  while (Date.now() <= time) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Human confirmations with a deadline, stored in the session's events of this store. */
export function defineConfirmationTests(ctx: ConformanceContext): void {
  it('keeps a confirmation deadline across a restart: the next run denies the late call', async () => {
    const executed: number[] = [];
    const pay = new FunctionTool({
      name: 'pay',
      description: 'Pay an amount.',
      parameters: z.object({ amount: z.number() }),
      execute: ({ amount }) => {
        executed.push(amount);
        return { paid: amount };
      },
    });
    const model = new FakeModel({
      responses: (_request, index) =>
        index === 0 ? fakeFunctionCall('pay', { amount: 42 }, 'c1') : 'Noted.',
    });
    const agent = new LlmAgent({ name: 'cashier', model, tools: [pay] });
    // A new Runner per turn, without timers: what a restarted process has.
    const runner = () =>
      new Runner({
        appName: ctx.appName,
        agent,
        sessionService: ctx.service,
        policies: [new ConfirmationPolicy({ tools: ['pay'], timeoutMs: 50 })],
        confirmationTimers: false,
      });
    const session = await ctx.session();
    const turn = { userId: session.userId, sessionId: session.id };
    await drain(runner().run({ ...turn, newMessage: userContent('pay 42') }));

    const stored = await ctx.reload(session);
    const request = stored.events.at(-1)?.content?.parts[0]?.functionCall;
    const deadline = confirmationDeadline(request?.args);
    expect(deadline).toBeGreaterThan(stored.events.at(-1)!.timestamp);
    await waitPast(deadline!);

    const next = await drain(runner().run({ ...turn, newMessage: userContent('any news?') }));
    expect(executed).toEqual([]);
    expect(next[0]?.content?.parts[0]?.functionResponse?.response).toMatchObject({
      error: { code: 'CONFIRMATION_EXPIRED' },
    });
    // The model sees its call answered by the denial, then the user's new message.
    expect(model.requests[1]?.contents.slice(1).map((content) => content.parts[0])).toMatchObject([
      { functionCall: { id: 'c1', name: 'pay' } },
      { functionResponse: { id: 'c1', response: { error: { code: 'CONFIRMATION_EXPIRED' } } } },
      { text: 'any news?' },
    ]);

    // The request is closed in the store: approving it now runs nothing.
    await drain(runner().run({ ...turn, newMessage: confirmationResponse(request!.id!, true) }));
    expect(executed).toEqual([]);
  });
}
