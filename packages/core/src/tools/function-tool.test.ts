import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { makeContext } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import { InvocationToolContext } from '../context/invocation-contexts';
import { ToolArgumentsError } from '../errors/tool-arguments-error';
import { createEventActions } from '../events';
import { FunctionTool } from './function-tool';
import { normalizeToolResult, toolErrorResponse } from './tool-response';

async function toolContext(confirmation?: { confirmed: boolean }) {
  const ctx = await makeContext(new LlmAgent({ name: 'agent' }));
  const actions = createEventActions();
  return { context: new InvocationToolContext(ctx, actions, 'call-1', confirmation), actions };
}

describe('FunctionTool', () => {
  it('derives the JSON Schema declaration from zod parameters', () => {
    const tool = new FunctionTool({
      name: 'book',
      description: 'Book a table.',
      parameters: z.object({
        restaurant: z.string().describe('Name'),
        people: z.number().int().min(1).default(2),
        time: z.enum(['lunch', 'dinner']).optional(),
      }),
      execute: (args) => args,
    });
    const declaration = tool.declaration();
    expect(declaration.name).toBe('book');
    expect(declaration.description).toBe('Book a table.');
    expect(declaration.parameters).not.toHaveProperty('$schema');
    expect(declaration.parameters).toMatchObject({
      type: 'object',
      properties: {
        restaurant: { type: 'string', description: 'Name' },
        people: { type: 'integer', minimum: 1, default: 2 },
        time: { enum: ['lunch', 'dinner'] },
      },
      required: ['restaurant'],
    });
  });

  it('parses arguments with zod before execute (defaults applied)', async () => {
    const tool = new FunctionTool({
      name: 'book',
      description: 'b',
      parameters: z.object({ restaurant: z.string(), people: z.number().default(2) }),
      execute: ({ restaurant, people }) => `${restaurant} for ${people}`,
    });
    const { context } = await toolContext();
    expect(await tool.run({ restaurant: 'Chez Nous' }, context)).toBe('Chez Nous for 2');
    const error = await tool.run({ people: 'many' }, context).catch((e: unknown) => e);
    expect(ToolArgumentsError.isInstance(error)).toBe(true);
    expect((error as ToolArgumentsError).issues.map((i) => i.path)).toEqual([
      'restaurant',
      'people',
    ]);
  });

  it('validates arguments against a raw JSON Schema', async () => {
    let executed = 0;
    const tool = new FunctionTool({
      name: 'lookup',
      description: 'l',
      parameters: {
        type: 'object',
        properties: { id: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
        required: ['id'],
        additionalProperties: false,
      },
      execute: (args) => {
        executed++;
        return args;
      },
    });
    const { context } = await toolContext();
    expect(await tool.run({ id: 3, tags: ['a'] }, context)).toEqual({ id: 3, tags: ['a'] });
    const error = (await tool
      .run({ id: 1.5, tags: [1], extra: true }, context)
      .catch((e: unknown) => e)) as ToolArgumentsError;
    expect(error.issues.map((i) => i.path)).toEqual(['id', 'tags.0', 'extra']);
    expect(executed).toBe(1);
    expect(tool.declaration().parameters).toMatchObject({ required: ['id'] });
  });

  it('takes no arguments when parameters are omitted', async () => {
    const tool = new FunctionTool({ name: 'now', description: 'n', execute: () => 'noon' });
    expect(tool.declaration().parameters).toEqual({ type: 'object', properties: {} });
    const { context } = await toolContext();
    expect(await tool.run({}, context)).toBe('noon');
  });

  it('requests a confirmation instead of running, and runs once confirmed', async () => {
    let transfers = 0;
    const tool = new FunctionTool({
      name: 'transfer',
      description: 't',
      parameters: z.object({ amount: z.number() }),
      requireConfirmation: ({ amount }) => amount > 100,
      execute: ({ amount }) => {
        transfers++;
        return { sent: amount };
      },
    });
    const small = await toolContext();
    expect(await tool.run({ amount: 5 }, small.context)).toEqual({ sent: 5 });
    const pending = await toolContext();
    expect(await tool.run({ amount: 500 }, pending.context)).toMatchObject({
      error: { code: 'CONFIRMATION_REQUIRED' },
    });
    expect(pending.actions.requestedToolConfirmations['call-1']).toMatchObject({
      confirmed: false,
      payload: { amount: 500 },
    });
    expect(transfers).toBe(1);
    const approved = await toolContext({ confirmed: true });
    expect(await tool.run({ amount: 500 }, approved.context)).toEqual({ sent: 500 });
    const rejected = await toolContext({ confirmed: false });
    expect(await tool.run({ amount: 500 }, rejected.context)).toMatchObject({
      error: { code: 'TOOL_CALL_REJECTED' },
    });
    expect(transfers).toBe(2);
  });
});

describe('tool results', () => {
  it('keeps objects and wraps every other value as { result }', () => {
    expect(normalizeToolResult({ a: 1 })).toEqual({ a: 1 });
    expect(normalizeToolResult('text')).toEqual({ result: 'text' });
    expect(normalizeToolResult(3)).toEqual({ result: 3 });
    expect(normalizeToolResult([1, 2])).toEqual({ result: [1, 2] });
    expect(normalizeToolResult(null)).toEqual({ result: null });
    expect(normalizeToolResult(undefined)).toEqual({});
  });

  it('describes errors with a code and a message', () => {
    expect(toolErrorResponse('t', new TypeError('boom'))).toEqual({
      error: { code: 'TOOL_EXECUTION_FAILED', message: 'Tool "t" failed: boom' },
    });
    expect(toolErrorResponse('t', 'plain string')).toEqual({
      error: { code: 'TOOL_EXECUTION_FAILED', message: 'Tool "t" failed: plain string' },
    });
  });
});
