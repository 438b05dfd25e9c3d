import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { APP, deferred, setup } from '../../test/helpers';
import { getFunctionResponses, getText } from '../content';
import type { Toolset } from '../tools/tool';
import { ModelRegistry } from '../models/model-registry';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCalls } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';
import { BaseAgent } from './base-agent';
import type { InvocationContext } from '../invocation/invocation-context';
import { LlmAgent } from './llm-agent';
import type { Event } from '../events';
import { Runner } from '../runner/runner';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { modelContent, userContent } from '../content';
import { createEvent } from '../events';
import { defaultRequestProcessors } from '../flow/request-processors/default-processors';
import type { RequestProcessor } from '../flow/request-processors/types';
import { registerStepPostprocessor } from '../flow/postprocessors';

const weatherTool = new FunctionTool({
  name: 'get_weather',
  description: 'Weather of a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, forecast: 'sunny' }),
});

describe('LlmAgent tool loop', () => {
  it('calls the tool, sends its result back to the model and ends on the final answer', async () => {
    const model = new FakeModel({
      responses: [
        { functionCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] },
        'Sunny in Paris.',
      ],
      strict: true,
    });
    const agent = new LlmAgent({ name: 'weather', model, tools: [weatherTool] });
    const { run, session } = await setup(agent);
    const events = await run('Weather in Paris?');
    expect(events.map((e) => e.author)).toEqual(['weather', 'weather', 'weather']);
    expect(events[1]!.content).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: 'call-1',
            name: 'get_weather',
            response: { city: 'Paris', forecast: 'sunny' },
          },
        },
      ],
    });
    expect(getText(events[2]!.content)).toBe('Sunny in Paris.');
    model.assertAllConsumed();
    // The second request carries the call and its response, in that order.
    const contents = model.requests[1]!.contents;
    expect(contents.at(-2)?.parts[0]?.functionCall?.name).toBe('get_weather');
    expect(contents.at(-1)?.parts[0]?.functionResponse?.response).toEqual({
      city: 'Paris',
      forecast: 'sunny',
    });
    // Everything yielded is stored, after the user's message.
    expect((await session()).events.map((e) => e.id)).toEqual([
      expect.any(String),
      ...events.map((e) => e.id),
    ]);
  });

  it('runs the calls of one response concurrently and merges the results in call order', async () => {
    const aStarted = deferred();
    const bStarted = deferred();
    // Each tool waits for the other to have started: sequential execution would never finish.
    const a = new FunctionTool({
      name: 'tool_a',
      description: 'a',
      execute: async (_args, ctx) => {
        aStarted.resolve();
        await bStarted.promise;
        ctx.state.set('shared', 'a');
        ctx.state.set('only_a', 1);
        return 'A';
      },
    });
    const b = new FunctionTool({
      name: 'tool_b',
      description: 'b',
      execute: async (_args, ctx) => {
        bStarted.resolve();
        await aStarted.promise;
        ctx.state.set('shared', 'b');
        return { value: 'B' };
      },
    });
    const model = new FakeModel([
      fakeFunctionCalls({ name: 'tool_b' }, { name: 'tool_a' }),
      'done',
    ]);
    const { run, session } = await setup(new LlmAgent({ name: 'agent', model, tools: [a, b] }));
    const events = await run('go');
    const responses = getFunctionResponses(events[1]!.content);
    expect(responses.map((r) => [r.id, r.name, r.response])).toEqual([
      ['call-1', 'tool_b', { value: 'B' }],
      ['call-2', 'tool_a', { result: 'A' }],
    ]);
    // Later calls win on the same key; every call's writes are kept.
    expect(events[1]!.actions.stateDelta).toEqual({ shared: 'a', only_a: 1 });
    expect((await session()).state).toMatchObject({ shared: 'a', only_a: 1 });
  });

  it('answers an unknown tool with a structured error and lets the model recover', async () => {
    const model = new FakeModel([
      fakeFunctionCalls({ name: 'no_such_tool', args: {} }),
      'Sorry, I cannot.',
    ]);
    const { run } = await setup(new LlmAgent({ name: 'agent', model, tools: [weatherTool] }));
    const events = await run('hi');
    expect(getFunctionResponses(events[1]!.content)[0]!.response).toEqual({
      error: {
        code: 'TOOL_NOT_FOUND',
        message: expect.stringContaining('no_such_tool'),
        availableTools: ['get_weather'],
      },
    });
    expect(getText(events[2]!.content)).toBe('Sorry, I cannot.');
    expect(model.callCount).toBe(2);
  });

  it('rejects invalid arguments before execute runs, naming the offending field', async () => {
    let executed = 0;
    const tool = new FunctionTool({
      name: 'get_weather',
      description: 'd',
      parameters: z.object({ city: z.string() }),
      execute: () => {
        executed++;
        return {};
      },
    });
    const model = new FakeModel([
      fakeFunctionCalls({ name: 'get_weather', args: { city: 42 } }),
      'ok',
    ]);
    const { run } = await setup(new LlmAgent({ name: 'agent', model, tools: [tool] }));
    const events = await run('hi');
    expect(executed).toBe(0);
    const response = getFunctionResponses(events[1]!.content)[0]!.response as {
      error: { code: string; issues: unknown };
    };
    expect(response.error.code).toBe('INVALID_TOOL_ARGUMENTS');
    expect(response.error.issues).toEqual([{ path: 'city', message: expect.any(String) }]);
    expect(getText(events[2]!.content)).toBe('ok');
  });

  it('turns a throwing tool into an error response and continues', async () => {
    const tool = new FunctionTool({
      name: 'flaky',
      description: 'd',
      execute: () => {
        throw new TypeError('database is down');
      },
    });
    const model = new FakeModel([fakeFunctionCalls({ name: 'flaky' }), 'The database is down.']);
    const { run } = await setup(new LlmAgent({ name: 'agent', model, tools: [tool] }));
    const events = await run('hi');
    expect(getFunctionResponses(events[1]!.content)[0]!.response).toEqual({
      error: { code: 'TOOL_EXECUTION_FAILED', message: 'Tool "flaky" failed: database is down' },
    });
    expect(events).toHaveLength(3);
  });

  it('stores tool results as JSON and reports a result that cannot be serialised', async () => {
    const circular: Record<string, unknown> = { name: 'loop' };
    circular.self = circular;
    const tool = new FunctionTool({
      name: 'odd',
      description: 'o',
      parameters: z.object({ kind: z.string() }),
      execute: ({ kind }) => (kind === 'date' ? { at: new Date(0), skip: undefined } : circular),
    });
    const model = new FakeModel([
      fakeFunctionCalls(
        { name: 'odd', args: { kind: 'date' } },
        { name: 'odd', args: { kind: 'circular' } },
      ),
      'ok',
    ]);
    const { run, session } = await setup(new LlmAgent({ name: 'agent', model, tools: [tool] }));
    const events = await run('hi');
    const responses = getFunctionResponses(events[1]!.content).map((r) => r.response);
    expect(responses[0]).toEqual({ at: '1970-01-01T00:00:00.000Z' });
    expect(responses[1]).toMatchObject({ error: { code: 'TOOL_RESULT_NOT_SERIALIZABLE' } });
    expect((await session()).events[2]).toEqual(events[1]);
  });

  it('never stores an empty parts array from a model response', async () => {
    const model = new FakeModel([{ content: { role: 'model', parts: [] }, finishReason: 'STOP' }]);
    const { run, session } = await setup(new LlmAgent({ name: 'agent', model }));
    const events = await run('hi');
    expect(events).toHaveLength(1);
    expect(events[0]!.content).toBeUndefined();
    expect(events[0]!.finishReason).toBe('STOP');
    expect((await session()).events[1]!.content).toBeUndefined();
  });

  it('turns a model failure into an error event that ends the agent', async () => {
    const model = new FakeModel([new TypeError('connection reset')]);
    const { run, session } = await setup(new LlmAgent({ name: 'agent', model }));
    const events = await run('hi');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      author: 'agent',
      errorCode: 'MODEL_ERROR',
      errorMessage: 'connection reset',
    });
    expect((await session()).events.at(-1)?.errorCode).toBe('MODEL_ERROR');
  });

  it('ends the run with a typed error event at maxLlmCalls', async () => {
    // A model that always calls a tool would loop forever without the limit.
    const model = new FakeModel({
      responses: () => fakeFunctionCalls({ name: 'get_weather', args: { city: 'X' } }),
    });
    const { run } = await setup(new LlmAgent({ name: 'agent', model, tools: [weatherTool] }));
    const events = await run('hi', { runConfig: { maxLlmCalls: 3 } });
    expect(model.callCount).toBe(3);
    expect(events.at(-1)).toMatchObject({
      errorCode: 'MAX_LLM_CALLS_EXCEEDED',
      errorMessage: expect.stringContaining('3'),
    });
  });

  it('counts maxLlmCalls across every agent of the invocation and ends it', async () => {
    class Chain extends BaseAgent {
      protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
        for (const sub of this.subAgents) yield* sub.run(ctx);
      }
    }
    const loopForever = () =>
      new FakeModel({
        responses: () => fakeFunctionCalls({ name: 'get_weather', args: { city: 'X' } }),
      });
    const first = new LlmAgent({ name: 'first', model: loopForever(), tools: [weatherTool] });
    const second = new LlmAgent({
      name: 'second',
      model: new FakeModel(['never']),
      tools: [weatherTool],
    });
    const { run } = await setup(new Chain({ name: 'chain', subAgents: [first, second] }));
    const events = await run('hi', { runConfig: { maxLlmCalls: 2 } });
    expect(events.at(-1)).toMatchObject({ author: 'first', errorCode: 'MAX_LLM_CALLS_EXCEEDED' });
    expect(events.some((e) => e.author === 'second')).toBe(false);
    expect((second.model as FakeModel).callCount).toBe(0);
  });

  it('ends the invocation waiting on a long-running tool that returns nothing', async () => {
    const started: string[] = [];
    const approval = new FunctionTool({
      name: 'ask_approval',
      description: 'Ask a manager.',
      isLongRunning: true,
      execute: (_args, ctx) => {
        started.push(ctx.functionCallId);
      },
    });
    const model = new FakeModel({
      responses: [fakeFunctionCalls({ name: 'ask_approval', id: 'job-1' })],
      strict: true,
    });
    const { run } = await setup(new LlmAgent({ name: 'agent', model, tools: [approval] }));
    const events = await run('please approve');
    expect(started).toEqual(['job-1']);
    expect(events).toHaveLength(1);
    expect(events[0]!.longRunningToolIds).toEqual(['job-1']);
    expect(model.callCount).toBe(1);
    expect(approval.declaration().description).toContain('long-running');
  });

  it('gives function calls without an id a generated one, used by the response', async () => {
    const model = new FakeModel([
      {
        content: {
          role: 'model',
          parts: [{ functionCall: { name: 'get_weather', args: { city: 'Rome' } } }],
        },
      },
      'ok',
    ]);
    const { run } = await setup(new LlmAgent({ name: 'agent', model, tools: [weatherTool] }));
    const events = await run('hi');
    const id = events[0]!.content!.parts[0]!.functionCall!.id!;
    expect(id).toMatch(/^adk-/);
    expect(getFunctionResponses(events[1]!.content)[0]!.id).toBe(id);
  });

  it('gives every event of a step its own actions object', async () => {
    const model = new FakeModel([
      fakeFunctionCalls({ name: 'get_weather', args: { city: 'X' } }),
      'ok',
    ]);
    const agent = new LlmAgent({
      name: 'agent',
      model,
      tools: [weatherTool],
      outputKey: 'answer',
      beforeModelCallback: ({ context }) => {
        context.state.set(
          'model_calls',
          ((context.state.get<number>('model_calls') ?? 0) as number) + 1,
        );
      },
    });
    const { run } = await setup(agent);
    const events = await run('hi', { runConfig: { streamingMode: 'sse' } });
    const deltas = events.map((e) => e.actions.stateDelta);
    expect(new Set(deltas).size).toBe(deltas.length);
    expect(events[0]!.actions.stateDelta).toEqual({ model_calls: 1 });
    expect(events[1]!.actions.stateDelta).toEqual({});
    expect(events.at(-1)!.actions.stateDelta).toEqual({ model_calls: 2, answer: 'ok' });
  });

  it('reports a failing toolset and keeps the other tools working', async () => {
    const broken: Toolset = {
      name: 'broken_mcp',
      getTools: async () => {
        throw new TypeError('server unreachable');
      },
    };
    const working: Toolset = { name: 'extra', getTools: async () => [weatherTool] };
    const model = new FakeModel([
      fakeFunctionCalls({ name: 'get_weather', args: { city: 'Oslo' } }),
      'Sunny',
    ]);
    const { run } = await setup(new LlmAgent({ name: 'agent', model, tools: [broken, working] }));
    const events = await run('hi');
    expect(events[0]).toMatchObject({
      errorCode: 'TOOLSET_ERROR',
      errorMessage: expect.stringContaining('broken_mcp'),
    });
    expect(
      getFunctionResponses(
        events.find((e) => getFunctionResponses(e.content).length > 0)?.content,
      )[0]!.response,
    ).toEqual({
      city: 'Oslo',
      forecast: 'sunny',
    });
    expect(getText(events.at(-1)!.content)).toBe('Sunny');
    const declared = model.requests[0]!.config.tools?.[0]?.functionDeclarations.map((d) => d.name);
    expect(declared).toEqual(['get_weather']);
  });

  it('resolves toolsets before every model call, with the current state', async () => {
    const unlock = new FunctionTool({
      name: 'unlock',
      description: 'Unlock admin tools.',
      execute: (_args, ctx) => {
        ctx.state.set('admin', true);
        return 'unlocked';
      },
    });
    const seen: boolean[] = [];
    const admin: Toolset = {
      name: 'admin_tools',
      getTools: async (ctx) => {
        const enabled = ctx.state.get('admin') === true;
        seen.push(enabled);
        return enabled ? [weatherTool] : [];
      },
    };
    const model = new FakeModel([fakeFunctionCalls({ name: 'unlock' }), 'done']);
    const { run } = await setup(new LlmAgent({ name: 'agent', model, tools: [unlock, admin] }));
    await run('hi');
    expect(seen).toEqual([false, true]);
    const declared = model.requests.map((r) =>
      r.config.tools?.[0]?.functionDeclarations.map((d) => d.name),
    );
    expect(declared).toEqual([['unlock'], ['unlock', 'get_weather']]);
  });

  it('refuses two static tools with the same name', () => {
    expect(() => new LlmAgent({ name: 'agent', tools: [weatherTool, weatherTool] })).toThrow(
      /two tools named "get_weather"/,
    );
  });
});

describe('LlmAgent output', () => {
  it('saves the final text under outputKey', async () => {
    const model = new FakeModel(['The answer is 42.']);
    const { run, session } = await setup(
      new LlmAgent({ name: 'agent', model, outputKey: 'answer' }),
    );
    await run('q');
    expect((await session()).state.answer).toBe('The answer is 42.');
  });

  it('saves only the aggregated final response when streaming, never a chunk', async () => {
    const model = new FakeModel([['The ', 'answer ', 'is 42.']]);
    const { run, session } = await setup(
      new LlmAgent({ name: 'agent', model, outputKey: 'answer' }),
    );
    const events = await run('q', { runConfig: { streamingMode: 'sse' } });
    expect(events.filter((e) => e.partial).map((e) => e.actions.stateDelta)).toEqual([{}, {}, {}]);
    expect(events.at(-1)!.actions.stateDelta).toEqual({ answer: 'The answer is 42.' });
    expect((await session()).state.answer).toBe('The answer is 42.');
  });

  it('validates output against outputSchema and stores the parsed value', async () => {
    const schema = z.object({ city: z.string(), celsius: z.number() });
    const model = new FakeModel(['```json\n{"city":"Paris","celsius":21}\n```']);
    const agent = new LlmAgent({ name: 'agent', model, outputSchema: schema, outputKey: 'report' });
    const { run, session } = await setup(agent);
    await run('q');
    expect((await session()).state.report).toEqual({ city: 'Paris', celsius: 21 });
    const request = model.requests[0]!;
    expect(request.config.responseMimeType).toBe('application/json');
    expect(request.config.responseSchema).toMatchObject({
      type: 'object',
      required: ['city', 'celsius'],
    });
  });

  it.each([
    ['not JSON', 'sunny and warm', 'not valid JSON'],
    ['JSON of the wrong shape', '{"city":"Paris","celsius":"hot"}', 'celsius'],
  ])('turns %s into an error event and saves nothing', async (_label, answer, detail) => {
    const schema = z.object({ city: z.string(), celsius: z.number() });
    const model = new FakeModel([answer]);
    const { run, session } = await setup(
      new LlmAgent({ name: 'agent', model, outputSchema: schema, outputKey: 'report' }),
    );
    const events = await run('q');
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({
      errorCode: 'OUTPUT_VALIDATION_FAILED',
      errorMessage: expect.stringContaining(detail),
    });
    expect((await session()).state.report).toBeUndefined();
  });

  it("includeContents 'none' sends only the current turn", async () => {
    const model = new FakeModel(['first answer', 'second answer']);
    const { run } = await setup(new LlmAgent({ name: 'agent', model, includeContents: 'none' }));
    await run('first');
    await run('second');
    expect(model.requests[1]!.contents).toEqual([{ role: 'user', parts: [{ text: 'second' }] }]);
  });

  it("includeContents 'default' sends the history", async () => {
    const model = new FakeModel(['first answer', 'second answer']);
    const { run } = await setup(new LlmAgent({ name: 'agent', model }));
    await run('first');
    await run('second');
    expect(model.requests[1]!.contents.map((c) => getText(c))).toEqual([
      'first',
      'first answer',
      'second',
    ]);
  });
});

describe('LlmAgent model resolution', () => {
  it('resolves a model name once through the registry and inherits it in sub-agents', async () => {
    const model = new FakeModel({ name: 'fake-pro', responses: ['a', 'b', 'c'] });
    let created = 0;
    const registry = new ModelRegistry();
    registry.register({
      id: 'fake',
      patterns: ['fake-*'],
      languageModel: () => (created++, model),
    });
    const child = new LlmAgent({ name: 'child' });
    const root = new LlmAgent({ name: 'root', model: 'fake-pro', subAgents: [child] });
    expect(child.resolveModel(registry)).toBe(model);
    const runner = new Runner({
      appName: APP,
      agent: root,
      models: registry,
      autoCreateSession: true,
      sessionService: new InMemorySessionService(),
    });
    for (let i = 0; i < 2; i++) {
      for await (const _ of runner.run({
        userId: 'u',
        sessionId: 's',
        newMessage: userContent('hi'),
      }))
        void _;
    }
    expect(created).toBe(1);
    expect(model.requests.map((r) => r.model)).toEqual(['fake-pro', 'fake-pro']);
  });

  it('reports an unknown model name as an error event listing the registered patterns', async () => {
    const registry = new ModelRegistry();
    registry.register(new FakeModel({ name: 'fake-1' }).asProvider('fake'));
    const agent = new LlmAgent({ name: 'agent', model: 'gpt-9' });
    const runner = new Runner({ appName: APP, agent, models: registry, autoCreateSession: true });
    const events = [];
    for await (const event of runner.run({
      userId: 'u',
      sessionId: 's',
      newMessage: userContent('hi'),
    }))
      events.push(event);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      errorCode: 'MODEL_NOT_FOUND',
      errorMessage: expect.stringContaining('fake-1 (fake)'),
    });
  });
});

describe('LlmAgent extension points', () => {
  it('runs custom request processors after the default ones', async () => {
    const model = new FakeModel(['ok']);
    const stamp: RequestProcessor = {
      name: 'stamp',
      process: (request) => ({
        ...request,
        config: { ...request.config, labels: { team: 'core' } },
      }),
    };
    const agent = new LlmAgent({
      name: 'agent',
      model,
      instruction: 'Be brief.',
      requestProcessors: [...defaultRequestProcessors, stamp],
    });
    const { run } = await setup(agent);
    await run('hi');
    expect(model.requests[0]!.config.labels).toEqual({ team: 'core' });
    expect(model.requests[0]!.systemInstruction).toContain('Be brief.');
  });

  it('runs registered step postprocessors after each function-response event', async () => {
    const seen: string[] = [];
    const unregister = registerStepPostprocessor(async function* ({ agent, ctx, event }) {
      seen.push(event.content!.parts[0]!.functionResponse!.name);
      yield createEvent({
        invocationId: ctx.invocationId,
        author: agent.name,
        content: modelContent('(audited)'),
      });
    });
    try {
      const model = new FakeModel([
        fakeFunctionCalls({ name: 'get_weather', args: { city: 'Paris' } }),
        'done',
      ]);
      const { run } = await setup(new LlmAgent({ name: 'agent', model, tools: [weatherTool] }));
      const events = await run('hi');
      expect(seen).toEqual(['get_weather']);
      expect(events.map((e) => getText(e.content))).toContain('(audited)');
    } finally {
      unregister();
    }
  });

  it('runs step postprocessors that answer synchronously: undefined or an array of events', async () => {
    const seen: string[] = [];
    const nothing = registerStepPostprocessor(({ event }) => {
      seen.push(`nothing:${event.content!.parts[0]!.functionResponse!.name}`);
      return undefined;
    });
    const array = registerStepPostprocessor(({ agent, ctx }) => [
      createEvent({
        invocationId: ctx.invocationId,
        author: agent.name,
        content: modelContent('(audited now)'),
      }),
    ]);
    try {
      const model = new FakeModel([
        fakeFunctionCalls({ name: 'get_weather', args: { city: 'Paris' } }),
        'done',
      ]);
      const { run, session } = await setup(
        new LlmAgent({ name: 'agent', model, tools: [weatherTool] }),
      );
      const events = await run('hi');
      expect(seen).toEqual(['nothing:get_weather']);
      // The array's event comes right after the function response; being final, it ends the turn.
      expect(events.at(-2)?.content?.parts[0]?.functionResponse?.name).toBe('get_weather');
      expect(getText(events.at(-1)?.content)).toBe('(audited now)');
      expect((await session()).events.map((e) => getText(e.content))).toContain('(audited now)');
    } finally {
      array();
      nothing();
    }
  });
});
