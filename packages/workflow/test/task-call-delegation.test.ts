import { getText, LlmAgent, type Content } from '@adk/core';
import { FakeModel, fakeFunctionCall } from '@adk/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { FINISH_TASK_TOOL_NAME, TaskAgent } from '../src';
import { runnerFor, turn } from './helpers';

const Ticket = z.object({ name: z.string(), order: z.string() });

/** The response the contents give to the call `id`. */
function responseTo(contents: readonly Content[], id: string): unknown {
  for (const content of contents) {
    for (const part of content.parts) {
      if (part.functionResponse?.id === id) return part.functionResponse.response;
    }
  }
  return undefined;
}

describe("task delegation through a call named after the task agent (Python's chat root)", () => {
  it('the parent calls intake(...), the task works with the user, its result answers the call', async () => {
    const parentModel = new FakeModel({
      responses: [fakeFunctionCall('intake', { request: 'File a ticket for Cy' }, 'd1'), 'Filed.'],
    });
    const taskModel = new FakeModel({
      responses: [
        'What is your order number?',
        fakeFunctionCall(FINISH_TASK_TOOL_NAME, { name: 'Cy', order: 'C-3' }, 'f1'),
      ],
    });
    const intake = new TaskAgent({
      name: 'intake',
      description: 'Files support tickets.',
      model: taskModel,
      mode: 'task',
      resultSchema: Ticket,
    });
    const desk = new LlmAgent({ name: 'desk', model: parentModel, subAgents: [intake] });
    const runner = runnerFor(desk);
    const first = await turn(runner, 'Hi, I am Cy');
    // The parent was offered a function named after the task agent, and called it.
    const offered = parentModel.requests[0]?.config?.tools?.flatMap(
      (tool) => tool.functionDeclarations?.map((declaration) => declaration.name) ?? [],
    );
    expect(offered).toContain('intake');
    expect(getText(first.at(-1)?.content)).toBe('What is your order number?');
    // The task agent saw the call's arguments as its task.
    expect(JSON.stringify(taskModel.requests[0]?.contents)).toContain('File a ticket for Cy');
    const second = await turn(runner, 'C-3');
    expect(getText(second.at(-1)?.content)).toBe('Filed.');
    // The parent's call is answered with the task's result, as Python answers it.
    expect(responseTo(parentModel.requests[1]?.contents ?? [], 'd1')).toEqual({
      name: 'Cy',
      order: 'C-3',
    });
  });
});
