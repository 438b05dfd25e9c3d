import { describe, expect, it } from 'vitest';

import { getText, modelContent, userContent } from '../content';
import type { Event } from '../events';
import { Runner } from '../runner/runner';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCall } from '../testing/fake-model-responses';
import { exitLoopTool } from '../tools/exit-loop-tool';
import { BaseAgent } from './base-agent';
import type { InvocationContext } from '../invocation/invocation-context';
import { LlmAgent } from './llm-agent';
import { LoopAgent } from './loop-agent';
import { ParallelAgent } from './parallel-agent';
import { SequentialAgent } from './sequential-agent';

async function collect(events: AsyncIterable<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe('workflow agents with model-driven sub-agents', () => {
  it('a critic ends the loop with exit_loop; the writer revises until then', async () => {
    const writerModel = new FakeModel({ responses: (_request, index) => `draft v${index + 1}` });
    const criticModel = new FakeModel({
      responses: ['Needs work.', fakeFunctionCall('exit_loop', {}, 'x1'), 'never'],
    });
    const writer = new LlmAgent({ name: 'writer', model: writerModel, outputKey: 'draft' });
    const critic = new LlmAgent({
      name: 'critic',
      model: criticModel,
      instruction: 'Review: {draft}. Call exit_loop when it is good.',
      tools: [exitLoopTool],
    });
    const loop = new LoopAgent({ name: 'refine', maxIterations: 5, subAgents: [writer, critic] });
    const runner = new Runner({ appName: 'app', agent: loop, autoCreateSession: true });
    const events = await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('write') }),
    );
    expect(
      events.map(
        (e) =>
          `${e.author}:${getText(e.content) || (e.content?.parts[0]?.functionCall?.name ?? e.content?.parts[0]?.functionResponse?.name)}`,
      ),
    ).toEqual([
      'writer:draft v1',
      'critic:Needs work.',
      'writer:draft v2',
      'critic:exit_loop',
      'critic:exit_loop',
    ]);
    expect(events.at(-1)?.actions).toMatchObject({ escalate: true, skipSummarization: true });
    // The critic did not call its model again after exit_loop, and the loop stopped.
    expect(criticModel.requests).toHaveLength(2);
    expect(writerModel.requests).toHaveLength(2);
    expect(criticModel.requests[1]?.systemInstruction).toContain('Review: draft v2.');
    expect(
      criticModel.requests[1]?.config.tools?.[0]?.functionDeclarations.map((d) => d.name),
    ).toEqual(['exit_loop']);
  });

  it('runs a custom agent (a BaseAgent subclass) through the Runner, storing its events and state', async () => {
    class Counter extends BaseAgent {
      protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
        const count = ((ctx.session.state.count as number | undefined) ?? 0) + 1;
        const event = this.createEvent(ctx, modelContent(`count is ${count}`));
        event.actions.stateDelta.count = count;
        yield event;
      }
    }
    const summary = new LlmAgent({
      name: 'summary',
      model: new FakeModel({ responses: (request) => `seen: ${getText(request.contents.at(-1))}` }),
    });
    const pipeline = new SequentialAgent({
      name: 'pipeline',
      subAgents: [new Counter({ name: 'counter' }), summary],
    });
    const runner = new Runner({ appName: 'app', agent: pipeline, autoCreateSession: true });
    await collect(runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('tick') }));
    const events = await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('tick') }),
    );
    expect(events.map((e) => getText(e.content))).toEqual([
      'count is 2',
      'seen: For context:[counter] said: count is 2',
    ]);
    const session = await runner.sessionService.getSession({
      appName: 'app',
      userId: 'u',
      sessionId: 's',
    });
    expect(session?.state.count).toBe(2);
  });

  it('runs model-driven branches concurrently, each seeing only its own branch', async () => {
    let bCalled!: () => void;
    const bWasCalled = new Promise<void>((resolve) => (bCalled = resolve));
    // A's model answers only once B's model has been called: this only finishes if both run at once.
    const aModel = new FakeModel({
      responses: async () => {
        await bWasCalled;
        return 'flights found';
      },
    });
    const bModel = new FakeModel({
      responses: () => {
        bCalled();
        return 'hotels found';
      },
    });
    const summaryModel = new FakeModel({ responses: ['trip planned'] });
    const research = new ParallelAgent({
      name: 'research',
      subAgents: [
        new LlmAgent({ name: 'flights', model: aModel }),
        new LlmAgent({ name: 'hotels', model: bModel }),
      ],
    });
    const trip = new SequentialAgent({
      name: 'trip',
      subAgents: [research, new LlmAgent({ name: 'summary', model: summaryModel })],
    });
    const runner = new Runner({ appName: 'app', agent: trip, autoCreateSession: true });
    const events = await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('plan') }),
    );
    expect(events.map((e) => `${e.author}@${e.branch ?? ''}`)).toEqual([
      'hotels@research.hotels',
      'flights@research.flights',
      'summary@',
    ]);
    expect(aModel.requests[0]?.contents).toEqual([{ role: 'user', parts: [{ text: 'plan' }] }]);
    expect(bModel.requests[0]?.contents).toEqual([{ role: 'user', parts: [{ text: 'plan' }] }]);
    expect(summaryModel.requests[0]?.contents.map((c) => getText(c))).toEqual([
      'plan',
      'For context:[hotels] said: hotels found',
      'For context:[flights] said: flights found',
    ]);
  });
});
