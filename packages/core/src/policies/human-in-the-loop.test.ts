import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { LlmAgent } from '../agents/llm-agent';
import { getText, userContent } from '../content';
import type { Event } from '../events';
import { Runner } from '../runner/runner';
import { InMemorySessionService } from '../sessions';
import type { SessionService } from '../sessions';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCall } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';
import {
  confirmationCallId,
  confirmationResponse,
  REQUEST_CONFIRMATION_FUNCTION_NAME,
} from './confirmation';
import { ConfirmationPolicy } from './confirmation-policy';
import type { Policy } from './policy';

async function collect(events: AsyncIterable<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** An app whose agent pays with a tool that needs a human's approval. Each call builds a fresh Runner. */
function payApp(options: { gate: 'tool' | 'policy' }) {
  const executed: unknown[] = [];
  const pay = new FunctionTool({
    name: 'pay',
    description: 'Pay an amount.',
    parameters: z.object({ amount: z.number() }),
    requireConfirmation: options.gate === 'tool' ? true : undefined,
    execute: ({ amount }, ctx) => {
      executed.push({ amount, confirmation: ctx.toolConfirmation });
      return { paid: amount };
    },
  });
  const model = new FakeModel({
    responses: (request, index) => {
      if (index === 0) return fakeFunctionCall('pay', { amount: 42 }, 'c1');
      const last = request.contents.at(-1)?.parts[0]?.functionResponse?.response;
      return `Outcome: ${JSON.stringify(last)}`;
    },
  });
  const policies: Policy[] =
    options.gate === 'policy' ? [new ConfirmationPolicy({ tools: ['pay'], hint: 'Pay 42?' })] : [];
  const agent = new LlmAgent({ name: 'cashier', model, tools: [pay] });
  const sessionService: SessionService = new InMemorySessionService();
  const freshRunner = () =>
    new Runner({ appName: 'shop', agent, sessionService, policies, autoCreateSession: true });
  return { executed, model, freshRunner, sessionService };
}

describe.each(['tool', 'policy'] as const)('human in the loop (%s gate)', (gate) => {
  it('pauses with a confirmation request, then runs the call once a fresh Runner receives the approval', async () => {
    const app = payApp({ gate });
    const first = await collect(
      app.freshRunner().run({ userId: 'u', sessionId: 's', newMessage: userContent('pay 42') }),
    );
    expect(app.executed).toEqual([]);
    const request = first.at(-1)!;
    const requestCall = request.content?.parts[0]?.functionCall;
    expect(requestCall?.name).toBe(REQUEST_CONFIRMATION_FUNCTION_NAME);
    expect(requestCall?.id).toBe(confirmationCallId('c1'));
    expect(requestCall?.args).toMatchObject({
      originalFunctionCall: { id: 'c1', name: 'pay', args: { amount: 42 } },
    });
    expect(request.longRunningToolIds).toEqual([requestCall?.id]);
    expect(request.actions.requestedToolConfirmations.c1).toMatchObject({ confirmed: false });
    expect(app.model.requests).toHaveLength(1);

    // A new process: a new Runner on the same session store receives the approval.
    const second = await collect(
      app.freshRunner().run({
        userId: 'u',
        sessionId: 's',
        newMessage: confirmationResponse(requestCall!.id!, true, { approver: 'boss' }),
      }),
    );
    expect(app.executed).toEqual([
      { amount: 42, confirmation: { confirmed: true, payload: { approver: 'boss' } } },
    ]);
    expect(second.map((e) => e.author)).toEqual(['cashier', 'cashier']);
    expect(second[0]?.content?.parts[0]?.functionResponse).toEqual({
      id: 'c1',
      name: 'pay',
      response: { paid: 42 },
    });
    expect(getText(second[1]?.content)).toBe('Outcome: {"paid":42}');
    // The model sees its call answered by the real result, and nothing of the confirmation protocol.
    expect(app.model.requests[1]?.contents).toEqual([
      { role: 'user', parts: [{ text: 'pay 42' }] },
      { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'pay', args: { amount: 42 } } }] },
      {
        role: 'user',
        parts: [{ functionResponse: { id: 'c1', name: 'pay', response: { paid: 42 } } }],
      },
    ]);

    // Answering the same request again does not pay twice.
    await collect(
      app.freshRunner().run({
        userId: 'u',
        sessionId: 's',
        newMessage: confirmationResponse(requestCall!.id!, true),
      }),
    );
    expect(app.executed).toHaveLength(1);
  });

  it('answers a rejection to the model without running the tool, across a fresh Runner', async () => {
    const app = payApp({ gate });
    const first = await collect(
      app.freshRunner().run({ userId: 'u', sessionId: 's', newMessage: userContent('pay 42') }),
    );
    const id = first.at(-1)?.content?.parts[0]?.functionCall?.id as string;
    const second = await collect(
      app.freshRunner().run({
        userId: 'u',
        sessionId: 's',
        newMessage: confirmationResponse(id, false, 'too much'),
      }),
    );
    expect(app.executed).toEqual([]);
    expect(second[0]?.content?.parts[0]?.functionResponse?.response).toEqual({
      error: {
        code: 'TOOL_CALL_REJECTED',
        message: 'The call to "pay" was rejected.',
        payload: 'too much',
      },
    });
    expect(getText(second.at(-1)?.content)).toContain('TOOL_CALL_REJECTED');
  });
});

describe('human in the loop: bad answers', () => {
  it('treats a malformed answer as a rejection and never runs the tool', async () => {
    const app = payApp({ gate: 'tool' });
    const first = await collect(
      app.freshRunner().run({ userId: 'u', sessionId: 's', newMessage: userContent('pay') }),
    );
    const id = first.at(-1)?.content?.parts[0]?.functionCall?.id as string;
    await collect(
      app.freshRunner().run({
        userId: 'u',
        sessionId: 's',
        newMessage: {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id,
                name: REQUEST_CONFIRMATION_FUNCTION_NAME,
                response: { confirmed: 'yes' },
              },
            },
          ],
        },
      }),
    );
    expect(app.executed).toEqual([]);
    const session = await app.sessionService.getSession({
      appName: 'shop',
      userId: 'u',
      sessionId: 's',
    });
    const answer = session?.events.at(-2)?.content?.parts[0]?.functionResponse;
    expect(answer?.response).toMatchObject({ error: { code: 'TOOL_CALL_REJECTED' } });
  });
});
