import {
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  readInvocationProgress,
  SequentialAgent,
  type Event,
} from '@adk/core';
import { FakeModel, fakeFunctionCall } from '@adk/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { REQUEST_INPUT_FUNCTION_NAME, START, Workflow, type NodeContext } from '../src';
import { answer, runnerFor, turn, workflowOutput } from './helpers';

/** The stored events that list `id` as a pending long-running call. */
function listing(events: readonly Event[], id: string): Event[] {
  return events.filter((event) => event.longRunningToolIds?.includes(id));
}

async function storedEvents(sessions: InMemorySessionService): Promise<Event[]> {
  const session = await sessions.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
  return session?.events ?? [];
}

describe('an interrupt is stored once (as in Python, where only the request event carries it)', () => {
  it('a request inside a nested workflow: one stored event lists it, and the run still pauses', async () => {
    const ask = (_: unknown, ctx: NodeContext) => ctx.requestInput({ id: 'q', message: 'Size?' });
    const inner = new Workflow({ name: 'inner', edges: [[START, ask]] });
    const label = (size: unknown) => `size ${JSON.stringify(size)}`;
    const outer = new Workflow({ name: 'outer', edges: [[START, inner, label]] });
    const closingModel = new FakeModel({ responses: ['Thanks!'] });
    const closing = new LlmAgent({ name: 'closing', model: closingModel });
    const sessions = new InMemorySessionService();
    const runner = runnerFor(
      new SequentialAgent({ name: 'root', subAgents: [outer, closing] }),
      sessions,
    );
    await turn(runner, 'go');
    const stored = await storedEvents(sessions);
    expect(listing(stored, 'q')).toHaveLength(1);
    expect(listing(stored, 'q')[0]?.content?.parts[0]?.functionCall?.name).toBe(
      REQUEST_INPUT_FUNCTION_NAME,
    );
    // The agents above stop as on any pause, and the invocation reads as paused.
    expect(closingModel.requests).toHaveLength(0);
    const invocationId = stored.at(-1)?.invocationId as string;
    const progress = readInvocationProgress(stored, invocationId);
    expect(progress.finished).toBe(true);
    const second = await turn(runner, answer('q', REQUEST_INPUT_FUNCTION_NAME, { result: 'XL' }));
    expect(workflowOutput(second.filter((e) => e.author === 'outer'))).toBe('size "XL"');
    expect(closingModel.requests).toHaveLength(1);
  });

  it("an agent node's long-running call: only the agent's call event lists it", async () => {
    const model = new FakeModel({
      responses: [fakeFunctionCall('ship', { order: 'A1' }, 'c1'), 'Shipped.'],
    });
    const ship = new FunctionTool({
      name: 'ship',
      description: 'ship an order, answered later',
      parameters: z.object({ order: z.string() }),
      isLongRunning: true,
      execute: () => undefined,
    });
    const agent = new LlmAgent({ name: 'clerk', model, tools: [ship] });
    const sessions = new InMemorySessionService();
    const runner = runnerFor(new Workflow({ name: 'wf', edges: [[START, agent]] }), sessions);
    await turn(runner, 'ship A1');
    const stored = await storedEvents(sessions);
    expect(listing(stored, 'c1').map((event) => event.author)).toEqual(['clerk']);
    const second = await turn(runner, answer('c1', 'ship', { status: 'shipped' }));
    expect(workflowOutput(second)).toBe('Shipped.');
  });
});
