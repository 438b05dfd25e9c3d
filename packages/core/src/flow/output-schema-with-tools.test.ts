import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { setup } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import { getFunctionCalls, getFunctionResponses, getText } from '../content';
import type { LlmRequest } from '../models';
import { FakeModel } from '../testing/fake-model';
import { FunctionTool } from '../tools/function-tool';
import { SET_MODEL_RESPONSE, SET_MODEL_RESPONSE_INSTRUCTION } from './set-model-response-tool';

const REPORT = z.object({
  city: z.string(),
  celsius: z.number(),
  note: z.string().default('none'),
});

function weatherTool() {
  const runs: string[] = [];
  const tool = new FunctionTool({
    name: 'get_weather',
    description: 'Weather of a city.',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => {
      runs.push(city);
      return { celsius: 21 };
    },
  });
  return { tool, runs };
}

function declaredNames(request: LlmRequest): string[] {
  return (request.config.tools ?? []).flatMap((group) =>
    group.functionDeclarations.map((declaration) => declaration.name),
  );
}

describe('outputSchema with tools on a model that cannot combine them (set_model_response)', () => {
  it('runs the tools, then ends with the validated answer of set_model_response', async () => {
    const { tool, runs } = weatherTool();
    const model = new FakeModel({
      responses: [
        { functionCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] },
        { functionCalls: [{ name: SET_MODEL_RESPONSE, args: { city: 'Paris', celsius: 21 } }] },
      ],
      strict: true,
    });
    const agent = new LlmAgent({
      name: 'reporter',
      model,
      tools: [tool],
      outputSchema: REPORT,
      outputKey: 'report',
    });
    const { run, session } = await setup(agent);
    const events = await run('Weather report for Paris?');
    model.assertAllConsumed();
    expect(runs).toEqual(['Paris']);

    // Every request offers the tool, asks for it in the instruction, and sends no response schema.
    for (const request of model.requests) {
      expect(declaredNames(request)).toEqual(['get_weather', SET_MODEL_RESPONSE]);
      expect(request.config.responseSchema).toBeUndefined();
      expect(request.config.responseMimeType).toBeUndefined();
      expect(request.systemInstruction).toContain(SET_MODEL_RESPONSE_INSTRUCTION);
      expect(request.systemInstruction).not.toContain('Reply with valid JSON');
    }
    const declaration = model.requests[0]!.config.tools![0]!.functionDeclarations[1]!;
    expect(declaration.parameters).toEqual(agent.outputJsonSchema);

    // call, response, set_model_response call, its acknowledgement, then the final answer.
    expect(events).toHaveLength(5);
    expect(getFunctionCalls(events[2]!.content).map((call) => call.name)).toEqual([
      SET_MODEL_RESPONSE,
    ]);
    expect(getFunctionResponses(events[3]!.content)[0]).toMatchObject({
      name: SET_MODEL_RESPONSE,
      response: { result: 'Response set successfully.' },
    });
    const final = events[4]!;
    expect(final.author).toBe('reporter');
    expect(final.content?.role).toBe('model');
    expect(JSON.parse(getText(final.content))).toEqual({ city: 'Paris', celsius: 21 });
    // The parsed value (the schema's default applied) goes to outputKey.
    expect(final.actions.stateDelta.report).toEqual({ city: 'Paris', celsius: 21, note: 'none' });
    expect((await session()).state.report).toEqual({ city: 'Paris', celsius: 21, note: 'none' });
  });

  it('wraps a schema that is not an object in a `response` parameter', async () => {
    const { tool } = weatherTool();
    const model = new FakeModel({
      responses: [
        { functionCalls: [{ name: SET_MODEL_RESPONSE, args: { response: ['a', 'b'] } }] },
      ],
      strict: true,
    });
    const agent = new LlmAgent({
      name: 'lister',
      model,
      tools: [tool],
      outputSchema: z.array(z.string()),
      outputKey: 'items',
    });
    const { run, session } = await setup(agent);
    const events = await run('List.');
    const declaration = model.requests[0]!.config.tools![0]!.functionDeclarations[1]!;
    expect(declaration.parameters).toEqual({
      type: 'object',
      properties: { response: agent.outputJsonSchema },
      required: ['response'],
    });
    expect(getText(events.at(-1)!.content)).toBe('["a","b"]');
    expect((await session()).state.items).toEqual(['a', 'b']);
  });

  it('invalid arguments end with OUTPUT_VALIDATION_FAILED, run nothing and save nothing', async () => {
    const { tool, runs } = weatherTool();
    const model = new FakeModel({
      responses: [
        {
          functionCalls: [
            { name: 'get_weather', args: { city: 'Paris' } },
            { name: SET_MODEL_RESPONSE, args: { city: 'Paris', celsius: 'warm' } },
          ],
        },
      ],
      strict: true,
    });
    const agent = new LlmAgent({
      name: 'reporter',
      model,
      tools: [tool],
      outputSchema: REPORT,
      outputKey: 'report',
    });
    const { run, session } = await setup(agent);
    const events = await run('Weather report for Paris?');
    model.assertAllConsumed();
    expect(runs).toEqual([]);
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({
      author: 'reporter',
      errorCode: 'OUTPUT_VALIDATION_FAILED',
      errorMessage: expect.stringContaining(`${SET_MODEL_RESPONSE} arguments: celsius`),
    });
    expect((await session()).state.report).toBeUndefined();
  });

  it('a text answer is still validated against the schema', async () => {
    const { tool } = weatherTool();
    const model = new FakeModel({ responses: ['It is sunny.'], strict: true });
    const agent = new LlmAgent({ name: 'reporter', model, tools: [tool], outputSchema: REPORT });
    const { run } = await setup(agent);
    const events = await run('Weather report for Paris?');
    expect(events.at(-1)).toMatchObject({ errorCode: 'OUTPUT_VALIDATION_FAILED' });
  });

  it('the other calls of the answering response run before the answer ends the turn', async () => {
    const { tool, runs } = weatherTool();
    const model = new FakeModel({
      responses: [
        {
          functionCalls: [
            { name: 'get_weather', args: { city: 'Rome' } },
            { name: SET_MODEL_RESPONSE, args: { city: 'Rome', celsius: 25 } },
          ],
        },
      ],
      strict: true,
    });
    const agent = new LlmAgent({ name: 'reporter', model, tools: [tool], outputSchema: REPORT });
    const { run } = await setup(agent);
    const events = await run('Weather report for Rome?');
    model.assertAllConsumed();
    expect(runs).toEqual(['Rome']);
    expect(getFunctionResponses(events[1]!.content).map((r) => r.name)).toEqual([
      'get_weather',
      SET_MODEL_RESPONSE,
    ]);
    expect(JSON.parse(getText(events[2]!.content))).toEqual({ city: 'Rome', celsius: 25 });
    expect(events).toHaveLength(3);
  });

  it('is not offered without tools: the response schema is sent as before', async () => {
    const model = new FakeModel({ responses: ['{"city":"Oslo","celsius":3}'], strict: true });
    const agent = new LlmAgent({ name: 'reporter', model, outputSchema: REPORT, outputKey: 'r' });
    const { run, session } = await setup(agent);
    await run('Oslo?');
    const request = model.requests[0]!;
    expect(request.config.tools).toBeUndefined();
    expect(request.config.responseSchema).toEqual(agent.outputJsonSchema);
    expect(request.systemInstruction).toContain('Reply with valid JSON');
    expect((await session()).state.r).toEqual({ city: 'Oslo', celsius: 3, note: 'none' });
  });

  it('is not offered to agents without an outputSchema', async () => {
    const { tool } = weatherTool();
    const model = new FakeModel({ responses: ['Sunny.'], strict: true });
    const { run } = await setup(new LlmAgent({ name: 'plain', model, tools: [tool] }));
    await run('Weather?');
    expect(declaredNames(model.requests[0]!)).toEqual(['get_weather']);
    expect(model.requests[0]!.systemInstruction ?? '').not.toContain(SET_MODEL_RESPONSE);
  });

  it('a call to set_model_response from an agent that was not offered it is an unknown tool', async () => {
    const model = new FakeModel({
      responses: [{ functionCalls: [{ name: SET_MODEL_RESPONSE, args: { x: 1 } }] }, 'done'],
      strict: true,
    });
    const { run } = await setup(new LlmAgent({ name: 'plain', model }));
    const events = await run('Hi');
    expect(getFunctionResponses(events[1]!.content)[0]?.response).toMatchObject({
      error: { code: 'TOOL_NOT_FOUND' },
    });
    expect(getText(events.at(-1)!.content)).toBe('done');
  });
});

describe('outputSchema with tools on a model that combines them (responseSchemaWithTools)', () => {
  it('sends the response schema next to the tools and takes the JSON text answer', async () => {
    const { tool, runs } = weatherTool();
    const model = new FakeModel({
      responses: [
        { functionCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] },
        '{"city":"Paris","celsius":21}',
      ],
      strict: true,
      capabilities: { responseSchemaWithTools: true },
    });
    const agent = new LlmAgent({
      name: 'reporter',
      model,
      tools: [tool],
      outputSchema: REPORT,
      outputKey: 'report',
    });
    const { run, session } = await setup(agent);
    const events = await run('Weather report for Paris?');
    model.assertAllConsumed();
    expect(runs).toEqual(['Paris']);
    for (const request of model.requests) {
      expect(declaredNames(request)).toEqual(['get_weather']);
      expect(request.config.responseMimeType).toBe('application/json');
      expect(request.config.responseSchema).toEqual(agent.outputJsonSchema);
      expect(request.systemInstruction).not.toContain(SET_MODEL_RESPONSE);
    }
    expect(events).toHaveLength(3);
    expect((await session()).state.report).toEqual({ city: 'Paris', celsius: 21, note: 'none' });
  });

  it('a set_model_response call is then an unknown tool, not an answer', async () => {
    const { tool } = weatherTool();
    const model = new FakeModel({
      responses: [
        { functionCalls: [{ name: SET_MODEL_RESPONSE, args: { city: 'Paris', celsius: 21 } }] },
        '{"city":"Paris","celsius":22}',
      ],
      strict: true,
      capabilities: { responseSchemaWithTools: true },
    });
    const agent = new LlmAgent({
      name: 'reporter',
      model,
      tools: [tool],
      outputSchema: REPORT,
      outputKey: 'report',
    });
    const { run, session } = await setup(agent);
    await run('Weather report for Paris?');
    model.assertAllConsumed();
    expect((await session()).state.report).toMatchObject({ celsius: 22 });
  });
});
