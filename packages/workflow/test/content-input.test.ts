import { FunctionTool, LlmAgent, type Content } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { BaseNode, functionNode, node, START, Workflow, type NodeContext } from '../src';
import { outputs, runnerFor, turn, workflowOutput } from './helpers';

const withImage: Content = {
  role: 'user',
  parts: [{ text: 'what is this?' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0=' } }],
};

describe("the first node receives the user's message as Content, as in Python", () => {
  it('a custom node and a node that accepts content get the Content itself', async () => {
    class Inspect extends BaseNode {
      constructor() {
        super({ name: 'inspect' });
      }
      run(input: unknown) {
        return (input as Content).parts.length;
      }
    }
    const runner = runnerFor(new Workflow({ name: 'wf', edges: [[START, new Inspect()]] }));
    expect(workflowOutput(await turn(runner, withImage))).toBe(2);
    const raw = node((message: Content) => message.parts.map((part) => Object.keys(part)[0]), {
      name: 'raw',
      acceptsContent: true,
    });
    const second = runnerFor(new Workflow({ name: 'wf2', edges: [[START, raw]] }));
    expect(workflowOutput(await turn(second, withImage))).toEqual(['text', 'inlineData']);
  });

  it("an agent node gets every part (an image too), not the message's text", async () => {
    const model = new FakeModel({ responses: ['A cat.'] });
    const looker = new LlmAgent({ name: 'looker', model });
    const runner = runnerFor(new Workflow({ name: 'wf', edges: [[START, looker]] }));
    expect(workflowOutput(await turn(runner, withImage))).toBe('A cat.');
    const parts = model.requests[0]?.contents.at(-1)?.parts ?? [];
    expect(parts.map((part) => Object.keys(part)[0])).toEqual(['text', 'inlineData']);
  });

  it('a function node gets the text (as a Python function whose input is a str); a schema parses it', async () => {
    const shout = (text: string) => text.toUpperCase();
    const runner = runnerFor(new Workflow({ name: 'wf', edges: [[START, shout]] }));
    expect(workflowOutput(await turn(runner, 'hi'))).toBe('HI');
    const total = functionNode({
      name: 'total',
      inputSchema: z.object({ items: z.array(z.number()) }),
      run: (input) => input.items.reduce((a, b) => a + b, 0),
    });
    const second = runnerFor(new Workflow({ name: 'wf2', edges: [[START, total]] }));
    expect(workflowOutput(await turn(second, '{"items":[1,2,3]}'))).toBe(6);
  });

  it("a tool node parses the message's text as its JSON arguments, as Python's tool node", async () => {
    const add = new FunctionTool({
      name: 'add',
      description: 'add two numbers',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => ({ sum: a + b }),
    });
    const runner = runnerFor(new Workflow({ name: 'wf', edges: [[START, add]] }));
    const events = await turn(runner, '{"a": 2, "b": 3}');
    expect(outputs(events)[0]?.output).toEqual({ sum: 5 });
  });

  it('the run records the Content as its input; a node after the first gets values as before', async () => {
    const first = (_: unknown, ctx: NodeContext) => ctx.nodeName;
    const second = (value: string) => `${value}!`;
    const runner = runnerFor(new Workflow({ name: 'wf', edges: [[START, first, second]] }));
    const events = await turn(runner, withImage);
    expect(workflowOutput(events)).toBe('first!');
  });
});
