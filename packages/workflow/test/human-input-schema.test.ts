import { getFunctionCalls, type Event } from '@adk/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import {
  INPUT_REJECTED_ERROR_CODE,
  REQUEST_INPUT_FUNCTION_NAME,
  START,
  Workflow,
  type NodeContext,
} from '../src';
import { answer, outputs, runnerFor, turn, workflowOutput } from './helpers';

function inputRequests(events: readonly Event[]) {
  return events.flatMap((event) =>
    getFunctionCalls(event.content).filter((call) => call.name === REQUEST_INPUT_FUNCTION_NAME),
  );
}

const Approval = z.object({ approved: z.boolean(), note: z.string().optional() });

function approve(offer: string, ctx: NodeContext) {
  ctx.requestInput({
    id: 'approve',
    message: `Buy ${offer}?`,
    payload: { offer },
    responseSchema: Approval,
  });
}
const order = (reply: z.infer<typeof Approval>) => (reply.approved ? 'ordered' : 'cancelled');
const purchase = () => new Workflow({ name: 'wf', edges: [[START, approve, order]] });

describe('human input as Python ADK asks for it', () => {
  it("the adk_request_input call carries Python's argument names", async () => {
    const [request] = inputRequests(await turn(runnerFor(purchase()), 'a lamp'));
    expect(Object.keys(request?.args ?? {}).sort()).toEqual([
      'interruptId',
      'message',
      'payload',
      'response_schema',
    ]);
    expect(request?.args).toMatchObject({
      interruptId: 'approve',
      message: 'Buy a lamp?',
      payload: { offer: 'a lamp' },
      response_schema: { type: 'object', required: ['approved'] },
    });
  });

  it('an answer that does not match the schema is refused; the node stays paused and asks again', async () => {
    const runner = runnerFor(purchase());
    await turn(runner, 'a lamp');
    const refused = await turn(
      runner,
      answer('approve', REQUEST_INPUT_FUNCTION_NAME, { approved: 'sure' }),
    );
    const error = refused.find((event) => event.errorCode !== undefined);
    expect(error?.errorCode).toBe(INPUT_REJECTED_ERROR_CODE);
    expect(error?.errorMessage).toMatch(/approved/);
    expect(outputs(refused)).toEqual([]);
    expect(inputRequests(refused).map((call) => call.id)).toEqual(['approve']);
    expect(refused.at(-1)?.longRunningToolIds).toEqual(['approve']);
    const accepted = await turn(
      runner,
      answer('approve', REQUEST_INPUT_FUNCTION_NAME, { approved: true }),
    );
    expect(workflowOutput(accepted)).toBe('ordered');
  });
});
