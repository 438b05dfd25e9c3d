import { getText, LlmAgent, SequentialAgent } from '@adk/core';
import { FakeModel, fakeFunctionCall } from '@adk/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { FINISH_TASK_TOOL_NAME, functionNode, START, TaskAgent, Workflow } from '../src';
import { outputs, runnerFor, turn, workflowOutput } from './helpers';

const Ticket = z.object({ name: z.string(), order: z.string() });

describe('task delegation', () => {
  it('task mode: multi-turn with the user, ends with a result the schema validates', async () => {
    const model = new FakeModel({
      responses: [
        'What is your order number?',
        // Invalid (no order): refused back to the model, which corrects it.
        fakeFunctionCall(FINISH_TASK_TOOL_NAME, { name: 'Ada' }, 'f1'),
        fakeFunctionCall(FINISH_TASK_TOOL_NAME, { name: 'Ada', order: 'A-17' }, 'f2'),
      ],
    });
    const intake = new TaskAgent({
      name: 'intake',
      model,
      mode: 'task',
      instruction: 'Collect the name and the order number.',
      resultSchema: Ticket,
    });
    const file = functionNode({
      name: 'file',
      inputSchema: Ticket,
      run: (ticket) => `ticket for ${ticket.name} on ${ticket.order}`,
    });
    const runner = runnerFor(new Workflow({ name: 'support', edges: [[START, intake, file]] }));
    const first = await turn(runner, 'I am Ada, my parcel is late');
    expect(getText(first.find((e) => e.author === 'intake')?.content)).toBe(
      'What is your order number?',
    );
    expect(workflowOutput(first)).toBeUndefined();
    const second = await turn(runner, 'A-17');
    expect(outputs(second).map((r) => [r.node, r.output])).toEqual([
      ['intake', { name: 'Ada', order: 'A-17' }],
      ['file', 'ticket for Ada on A-17'],
    ]);
    expect(workflowOutput(second)).toBe('ticket for Ada on A-17');
    // The model saw the user's answer, and the refusal of the invalid result.
    const contents = JSON.stringify(model.requests[2]?.contents);
    expect(contents).toContain('A-17');
    expect(contents).toMatch(/error/i);
    // The task instruction tells the model how to hand the result back.
    expect(JSON.stringify(model.requests[0])).toContain(
      `call ${FINISH_TASK_TOOL_NAME} with the result`,
    );
  });

  it('single-turn mode: one answer, validated as the result', async () => {
    const model = new FakeModel({ responses: ['{"name":"Bo","order":"B-2"}'] });
    const extract = new TaskAgent({
      name: 'extract',
      model,
      mode: 'single_turn',
      resultSchema: Ticket,
    });
    const runner = runnerFor(new Workflow({ name: 'wf', edges: [[START, extract]] }));
    expect(workflowOutput(await turn(runner, 'Bo, order B-2'))).toEqual({
      name: 'Bo',
      order: 'B-2',
    });
  });

  it('under an LlmAgent: the parent delegates, the task agent hands the result back', async () => {
    const parentModel = new FakeModel({
      responses: [
        fakeFunctionCall('transfer_to_agent', { agent_name: 'intake' }, 't1'),
        'Filed, thanks.',
      ],
    });
    const taskModel = new FakeModel({
      responses: [fakeFunctionCall(FINISH_TASK_TOOL_NAME, { name: 'Cy', order: 'C-3' }, 'f1')],
    });
    const intake = new TaskAgent({
      name: 'intake',
      model: taskModel,
      mode: 'task',
      resultSchema: Ticket,
      outputKey: 'ticket',
    });
    const desk = new LlmAgent({ name: 'desk', model: parentModel, subAgents: [intake] });
    const runner = runnerFor(desk);
    const events = await turn(runner, 'Cy here, order C-3');
    expect(getText(events.at(-1)?.content)).toBe('Filed, thanks.');
    const session = await runner.sessionService.getSession({
      appName: 'app',
      userId: 'u',
      sessionId: 's',
    });
    expect(session?.state.ticket).toEqual({ name: 'Cy', order: 'C-3' });
  });
});

describe('task node under a SequentialAgent root', () => {
  it("the task agent awaiting the user's answer receives their next plain message", async () => {
    const greeterModel = new FakeModel({ responses: ['Hello, let us file your ticket.'] });
    const taskModel = new FakeModel({
      responses: [
        'What is your order number?',
        fakeFunctionCall(FINISH_TASK_TOOL_NAME, { name: 'Ada', order: 'A-17' }, 'f1'),
      ],
    });
    const afterModel = new FakeModel({ responses: ['Anything else?'] });
    const intake = new TaskAgent({
      name: 'intake',
      model: taskModel,
      mode: 'task',
      resultSchema: Ticket,
    });
    const file = functionNode({
      name: 'file',
      inputSchema: Ticket,
      run: (ticket) => `ticket for ${ticket.name} on ${ticket.order}`,
    });
    const support = new Workflow({ name: 'support', edges: [[START, intake, file]] });
    const root = new SequentialAgent({
      name: 'desk',
      subAgents: [
        new LlmAgent({ name: 'greeter', model: greeterModel }),
        support,
        new LlmAgent({ name: 'closer', model: afterModel }),
      ],
    });
    const runner = runnerFor(root);
    const first = await turn(runner, 'I am Ada, my parcel is late');
    expect(getText(first.find((e) => e.author === 'intake')?.content)).toBe(
      'What is your order number?',
    );
    // The sequence waits with the task: the agent after the workflow has not run yet.
    expect(first.some((e) => e.author === 'closer')).toBe(false);
    const second = await turn(runner, 'A-17');
    // The plain message went to the task agent (the sequence did not start over).
    expect(second.some((e) => e.author === 'greeter')).toBe(false);
    expect(greeterModel.requests).toHaveLength(1);
    expect(JSON.stringify(taskModel.requests[1]?.contents)).toContain('A-17');
    expect(outputs(second).map((r) => [r.node, r.output])).toEqual([
      ['intake', { name: 'Ada', order: 'A-17' }],
      ['file', 'ticket for Ada on A-17'],
    ]);
    // Then the sequence goes on after the workflow.
    expect(getText(second.at(-1)?.content)).toBe('Anything else?');
  });
});
