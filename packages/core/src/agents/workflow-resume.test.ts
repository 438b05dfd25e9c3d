import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { getText, userContent } from '../content';
import type { Event } from '../events';
import { confirmationResponse, REQUEST_CONFIRMATION_FUNCTION_NAME } from '../policies/confirmation';
import { Runner } from '../runner/runner';
import { InMemorySessionService, type SessionService } from '../sessions';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCall } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';
import { modelContent } from '../content';
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

/** `author:text`, `author:call name` or `author:response name` per event. */
function trace(events: readonly Event[]): string[] {
  return events.map((e) => {
    const part = e.content?.parts[0];
    const what =
      getText(e.content) ||
      (part?.functionCall ? `call ${part.functionCall.name}` : '') ||
      (part?.functionResponse ? `response ${part.functionResponse.name}` : '');
    return `${e.author}:${what}`;
  });
}

/** An agent answering with a fixed text, counting its model calls. */
function talker(name: string): LlmAgent {
  return new LlmAgent({ name, model: new FakeModel({ responses: () => `${name} done` }) });
}

/**
 * An agent that pays (a call needing a human's approval) whenever the latest content is not the
 * payment's answer; with `once`, it reports the outcome as soon as any answer is in its history.
 */
function payer(name: string, executed: unknown[], once = false): LlmAgent {
  const pay = new FunctionTool({
    name: 'pay',
    description: 'Pay an amount.',
    parameters: z.object({ amount: z.number() }),
    requireConfirmation: true,
    execute: ({ amount }) => {
      executed.push(amount);
      return { paid: amount };
    },
  });
  let calls = 0;
  const model = new FakeModel({
    responses: (request) => {
      calls++;
      const answers = request.contents.flatMap((content) =>
        content.parts.flatMap((part) =>
          part.functionResponse?.name === 'pay' &&
          !('error' in (part.functionResponse.response ?? {}))
            ? [part.functionResponse]
            : [],
        ),
      );
      const last = once ? answers.at(-1) : request.contents.at(-1)?.parts[0]?.functionResponse;
      if (last?.name === 'pay') return `${name} outcome ${JSON.stringify(last.response)}`;
      return fakeFunctionCall('pay', { amount: 42 }, `${name}-c${calls}`);
    },
  });
  return new LlmAgent({ name, model, tools: [pay] });
}

/** A custom agent saying `go on`, or escalating with `stop` once `done()` says so. */
class BaseAgentStub extends BaseAgent {
  constructor(
    name: string,
    private readonly done: () => boolean,
  ) {
    super({ name });
  }
  protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    const stop = this.done();
    const event = this.createEvent(ctx, modelContent(stop ? 'stop' : 'go on'));
    if (stop) event.actions.escalate = true;
    yield event;
  }
}

/** Each run uses a fresh Runner on the same session store (as a restarted process would). */
function app(agent: BaseAgent) {
  const sessionService: SessionService = new InMemorySessionService();
  const run = (newMessage: Parameters<Runner['run']>[0]['newMessage']) =>
    collect(
      new Runner({ appName: 'app', agent, sessionService, autoCreateSession: true }).run({
        userId: 'u',
        sessionId: 's',
        newMessage,
      }),
    );
  return { run, sessionService };
}

function requestId(events: readonly Event[]): string {
  const call = events.at(-1)?.content?.parts[0]?.functionCall;
  expect(call?.name).toBe(REQUEST_CONFIRMATION_FUNCTION_NAME);
  return call!.id!;
}

const PAUSE = ['b:call pay', 'b:response pay', `b:call ${REQUEST_CONFIRMATION_FUNCTION_NAME}`];

describe('resuming a paused call inside workflow agents (a fresh Runner per message)', () => {
  it('a sequence pauses at b, then continues with c after the approval', async () => {
    const executed: unknown[] = [];
    const c = talker('c');
    const { run } = app(
      new SequentialAgent({ name: 'seq', subAgents: [talker('a'), payer('b', executed), c] }),
    );
    const first = await run(userContent('go'));
    expect(trace(first)).toEqual(['a:a done', ...PAUSE]);
    expect((c.model as FakeModel).requests).toHaveLength(0);
    const second = await run(confirmationResponse(requestId(first), true));
    expect(executed).toEqual([42]);
    expect(trace(second)).toEqual(['b:response pay', 'b:b outcome {"paid":42}', 'c:c done']);
    // c sees the whole story, its predecessors' turns included.
    expect(JSON.stringify((c.model as FakeModel).requests[0]?.contents)).toContain(
      'b outcome {\\"paid\\":42}',
    );
  });

  it('a sequence continues with c after a rejection too, and the tool never runs', async () => {
    const executed: unknown[] = [];
    const { run } = app(
      new SequentialAgent({
        name: 'seq',
        subAgents: [talker('a'), payer('b', executed), talker('c')],
      }),
    );
    const first = await run(userContent('go'));
    const second = await run(confirmationResponse(requestId(first), false));
    expect(executed).toEqual([]);
    expect(trace(second)).toEqual([
      'b:response pay',
      expect.stringMatching(/^b:b outcome .*reject/i),
      'c:c done',
    ]);
  });

  it('a long-running tool pauses the sequence; its result resumes it', async () => {
    const started: unknown[] = [];
    const job = new FunctionTool({
      name: 'job',
      description: 'Start a job.',
      parameters: z.object({}),
      isLongRunning: true,
      execute: () => {
        started.push('job');
        return undefined;
      },
    });
    const model = new FakeModel({
      responses: (request) =>
        request.contents.at(-1)?.parts[0]?.functionResponse
          ? 'b saw the result'
          : fakeFunctionCall('job', {}, 'j1'),
    });
    const b = new LlmAgent({ name: 'b', model, tools: [job] });
    const { run } = app(
      new SequentialAgent({ name: 'seq', subAgents: [talker('a'), b, talker('c')] }),
    );
    const first = await run(userContent('go'));
    expect(trace(first)).toEqual(['a:a done', 'b:call job']);
    const second = await run({
      role: 'user',
      parts: [{ functionResponse: { id: 'j1', name: 'job', response: { done: true } } }],
    });
    expect(started).toEqual(['job']);
    expect(trace(second)).toEqual(['b:b saw the result', 'c:c done']);
  });

  it('a loop continues the paused pass, then goes on until maxIterations', async () => {
    const executed: unknown[] = [];
    const w = talker('w');
    const { run } = app(
      new LoopAgent({
        name: 'loop',
        maxIterations: 2,
        subAgents: [w, payer('b', executed), talker('z')],
      }),
    );
    const first = await run(userContent('go'));
    expect(trace(first)).toEqual(['w:w done', ...PAUSE]);
    const second = await run(confirmationResponse(requestId(first), true));
    // Pass 1 ends (b answers, z runs); pass 2 starts and pauses at b again.
    expect(trace(second)).toEqual([
      'b:response pay',
      'b:b outcome {"paid":42}',
      'z:z done',
      'w:w done',
      ...PAUSE,
    ]);
    const third = await run(confirmationResponse(requestId(second), true));
    // Pass 2 ends and so does the loop: two passes were done.
    expect(trace(third)).toEqual(['b:response pay', 'b:b outcome {"paid":42}', 'z:z done']);
    expect(executed).toEqual([42, 42]);
    expect((w.model as FakeModel).requests).toHaveLength(2);
  });

  it('a loop without maxIterations goes on until a sub-agent escalates', async () => {
    const executed: unknown[] = [];
    let checks = 0;
    const stop = new BaseAgentStub('stop', () => ++checks >= 2);
    const { run } = app(new LoopAgent({ name: 'loop', subAgents: [payer('b', executed), stop] }));
    const first = await run(userContent('go'));
    expect(trace(first)).toEqual(PAUSE);
    const second = await run(confirmationResponse(requestId(first), true));
    expect(trace(second)).toEqual([
      'b:response pay',
      'b:b outcome {"paid":42}',
      'stop:go on',
      ...PAUSE,
    ]);
    const third = await run(confirmationResponse(requestId(second), true));
    expect(trace(third)).toEqual(['b:response pay', 'b:b outcome {"paid":42}', 'stop:stop']);
    expect(third.at(-1)?.actions.escalate).toBe(true);
  });

  it('a sequence nested in a sequence finishes the inner one, then the outer one', async () => {
    const executed: unknown[] = [];
    const x = talker('x');
    const a = talker('a');
    const { run } = app(
      new SequentialAgent({
        name: 'outer',
        subAgents: [
          x,
          new SequentialAgent({ name: 'inner', subAgents: [a, payer('b', executed), talker('c')] }),
          talker('y'),
        ],
      }),
    );
    const first = await run(userContent('go'));
    expect(trace(first)).toEqual(['x:x done', 'a:a done', ...PAUSE]);
    const second = await run(confirmationResponse(requestId(first), true));
    expect(trace(second)).toEqual([
      'b:response pay',
      'b:b outcome {"paid":42}',
      'c:c done',
      'y:y done',
    ]);
    expect((x.model as FakeModel).requests).toHaveLength(1);
    expect((a.model as FakeModel).requests).toHaveLength(1);
  });

  it('a parallel branch resumes only itself, on its branch', async () => {
    const executed: unknown[] = [];
    const other = talker('other');
    const after = talker('after');
    const { run } = app(
      new SequentialAgent({
        name: 'seq',
        subAgents: [
          new ParallelAgent({ name: 'par', subAgents: [payer('b', executed, true), other] }),
          after,
        ],
      }),
    );
    const first = await run(userContent('go'));
    expect(trace(first).filter((line) => line.startsWith('b:'))).toEqual(PAUSE);
    const second = await run(
      confirmationResponse(requestId(first.filter((e) => e.author === 'b')), true),
    );
    expect(trace(second)).toEqual(['b:response pay', 'b:b outcome {"paid":42}']);
    expect(second.map((e) => e.branch)).toEqual(['par.b', 'par.b']);
    expect((other.model as FakeModel).requests).toHaveLength(1);
    expect((after.model as FakeModel).requests).toHaveLength(1);
  });
});
