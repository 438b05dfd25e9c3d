import { describe, expect, it } from 'vitest';

import { LlmAgent } from '../agents/llm-agent';
import { ParallelAgent } from '../agents/parallel-agent';
import { getText, userContent } from '../content';
import type { Event } from '../events';
import { Runner } from '../runner/runner';
import { InMemorySessionService } from '../sessions';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCall } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';

async function collect(events: AsyncIterable<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe('long-running tools', () => {
  it('end the run waiting, and a function response sent to a fresh Runner resumes the caller', async () => {
    const started: string[] = [];
    const startJob = new FunctionTool({
      name: 'start_job',
      description: 'Start a long job.',
      isLongRunning: true,
      execute: (_args, ctx) => {
        started.push(ctx.functionCallId);
        return undefined;
      },
    });
    const workerModel = new FakeModel({
      strict: true,
      responses: [fakeFunctionCall('start_job', {}, 'job-1'), 'The job finished: 7 rows.'],
    });
    // The worker may not hand back to its parent, so the usual rule would route to the root; the
    // function response must still reach the worker that made the call.
    const worker = new LlmAgent({
      name: 'worker',
      model: workerModel,
      tools: [startJob],
      disallowTransferToParent: true,
    });
    const rootModel = new FakeModel({
      strict: true,
      responses: [fakeFunctionCall('transfer_to_agent', { agent_name: 'worker' }, 't1')],
    });
    const root = new LlmAgent({ name: 'root', model: rootModel, subAgents: [worker] });
    const sessionService = new InMemorySessionService();
    const runner = () =>
      new Runner({ appName: 'jobs', agent: root, sessionService, autoCreateSession: true });

    const first = await collect(
      runner().run({ userId: 'u', sessionId: 's', newMessage: userContent('run the job') }),
    );
    expect(started).toEqual(['job-1']);
    const waiting = first.at(-1)!;
    expect(waiting.author).toBe('worker');
    expect(waiting.longRunningToolIds).toEqual(['job-1']);
    expect(workerModel.requests).toHaveLength(1);

    const second = await collect(
      runner().run({
        userId: 'u',
        sessionId: 's',
        newMessage: {
          role: 'user',
          parts: [{ functionResponse: { id: 'job-1', name: 'start_job', response: { rows: 7 } } }],
        },
      }),
    );
    expect(second.map((e) => e.author)).toEqual(['worker']);
    expect(getText(second[0]?.content)).toBe('The job finished: 7 rows.');
    expect(rootModel.requests).toHaveLength(1);
    expect(workerModel.requests[1]?.contents.slice(-2)).toEqual([
      { role: 'model', parts: [{ functionCall: { id: 'job-1', name: 'start_job', args: {} } }] },
      {
        role: 'user',
        parts: [{ functionResponse: { id: 'job-1', name: 'start_job', response: { rows: 7 } } }],
      },
    ]);
  });

  it('resumes a call made inside a parallel branch on that branch', async () => {
    const job = new FunctionTool({
      name: 'job',
      description: 'Long job.',
      isLongRunning: true,
      execute: () => undefined,
    });
    const workerModel = new FakeModel({
      responses: [fakeFunctionCall('job', {}, 'j1'), 'job done'],
    });
    const worker = new LlmAgent({ name: 'worker', model: workerModel, tools: [job] });
    const sibling = new LlmAgent({
      name: 'sibling',
      model: new FakeModel({ responses: ['sibling secret'] }),
    });
    const par = new ParallelAgent({ name: 'par', subAgents: [worker, sibling] });
    const sessionService = new InMemorySessionService();
    const runner = () =>
      new Runner({ appName: 'jobs', agent: par, sessionService, autoCreateSession: true });
    await collect(runner().run({ userId: 'u', sessionId: 's', newMessage: userContent('go') }));
    const resumed = await collect(
      runner().run({
        userId: 'u',
        sessionId: 's',
        newMessage: {
          role: 'user',
          parts: [{ functionResponse: { id: 'j1', name: 'job', response: { ok: true } } }],
        },
      }),
    );
    expect(resumed.map((e) => `${e.author}@${e.branch}`)).toEqual(['worker@par.worker']);
    expect(JSON.stringify(workerModel.requests[1]?.contents)).not.toContain('sibling secret');
  });
});
