/** Task delegation: a task agent talks with the user until it can hand back a valid result. */
import { FakeModel, fakeFunctionCall } from '@adk/core/testing';
import { FINISH_TASK_TOOL_NAME, functionNode, START, TaskAgent, Workflow } from '@adk/workflow';
import { z } from 'zod';

import { runTurn } from './run-turn';

const Ticket = z.object({ name: z.string(), order: z.string() });
const intake = new TaskAgent({
  name: 'intake',
  mode: 'task',
  // A scripted model so the example runs offline; use a real model name in an app.
  model: new FakeModel({
    responses: [
      'Which order is it about?',
      fakeFunctionCall(FINISH_TASK_TOOL_NAME, { name: 'Ada', order: 'A-17' }),
    ],
  }),
  instruction: 'Collect the customer name and the order number.',
  resultSchema: Ticket,
});
const file = functionNode({
  name: 'file',
  inputSchema: Ticket,
  run: (ticket) => `Ticket filed for ${ticket.name}, order ${ticket.order}.`,
});

const support = new Workflow({ name: 'support', edges: [[START, intake, file]] });

console.log('> Hi, I am Ada and my parcel is late');
await runTurn(support, 'Hi, I am Ada and my parcel is late');
console.log('> A-17');
await runTurn(support, 'A-17');
