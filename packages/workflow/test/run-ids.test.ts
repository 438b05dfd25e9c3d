import {
  createEvent,
  InMemorySessionService,
  LlmAgent,
  WORKFLOW_METADATA_KEY,
  type WorkflowRecord,
} from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { describe, expect, it } from 'vitest';

import { REQUEST_INPUT_FUNCTION_NAME, START, Workflow, type NodeContext } from '../src';
import { answer, outputs, runnerFor, turn, workflowOutput } from './helpers';

describe('node run ids counted from 1, as Python counts them', () => {
  it('graph nodes, loop passes and dynamic nodes: node@1, node@2..., an agent branch too', async () => {
    const step = (n: number | unknown, ctx: NodeContext) => {
      const next = typeof n === 'number' ? n + 1 : 1;
      ctx.route = next < 2 ? 'again' : 'done';
      return next;
    };
    const double = (n: number) => n * 2;
    const plan = async (n: number, ctx: NodeContext) => ctx.runNode<number>(double, n);
    const model = new FakeModel({ responses: ['ok'] });
    const say = new LlmAgent({ name: 'say', model });
    const workflow = new Workflow({
      name: 'wf',
      edges: [
        [START, step],
        [step, { again: step, done: plan }],
        [plan, say],
      ],
    });
    const events = await turn(runnerFor(workflow), 'go');
    expect(outputs(events).map((record) => record.path)).toEqual([
      'step@1',
      'step@2',
      'plan@1/double@1',
      'plan@1',
      'say@1',
    ]);
    expect(events.find((event) => event.author === 'say')?.branch).toBe('say@1');
  });

  it('a run stored with executions counted from 0 (an earlier version) resumes as stored', async () => {
    let drafted = 0;
    const draft = () => {
      drafted++;
      return 'v1';
    };
    const approve = (_: string, ctx: NodeContext) =>
      ctx.requestInput({ id: 'approval', message: 'OK?' });
    const publish = (reply: { ok: boolean }) => (reply.ok ? 'published' : 'dropped');
    const workflow = new Workflow({ name: 'wf', edges: [[START, draft, approve, publish]] });
    const sessions = new InMemorySessionService();
    const session = await sessions.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    const record = (value: WorkflowRecord, extra: Record<string, unknown> = {}) =>
      createEvent({
        invocationId: 'old',
        author: 'wf',
        customMetadata: { [WORKFLOW_METADATA_KEY]: value },
        ...extra,
      });
    const stored = [
      createEvent({
        invocationId: 'old',
        author: 'user',
        content: { role: 'user', parts: [{ text: 'go' }] },
      }),
      record({ kind: 'start', workflow: 'wf', run: 'old', input: 'go' }),
      record({
        kind: 'output',
        workflow: 'wf',
        run: 'old',
        path: 'draft@0',
        node: 'draft',
        output: 'v1',
        attempts: 1,
      }),
      record(
        {
          kind: 'interrupt',
          workflow: 'wf',
          run: 'old',
          path: 'approve@0',
          node: 'approve',
          requestIds: ['approval'],
          own: true,
        },
        {
          content: {
            role: 'model',
            parts: [
              {
                functionCall: {
                  id: 'approval',
                  name: REQUEST_INPUT_FUNCTION_NAME,
                  args: { interruptId: 'approval', message: 'OK?' },
                },
              },
            ],
          },
          longRunningToolIds: ['approval'],
        },
      ),
    ];
    for (const event of stored) await sessions.appendEvent({ session, event });
    const runner = runnerFor(workflow, sessions);
    const events = await turn(
      runner,
      answer('approval', REQUEST_INPUT_FUNCTION_NAME, { ok: true }),
    );
    expect(drafted).toBe(0);
    expect(outputs(events).map((r) => r.path)).toEqual(['approve@0', 'publish@0']);
    expect(workflowOutput(events)).toBe('published');
  });
});
