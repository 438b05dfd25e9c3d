import { FunctionTool, LlmAgent, ParallelAgent, Runner, userContent, type Event } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';

import { harness, parentId, type TelemetryHarness } from './harness';

async function drain(run: AsyncIterable<Event>): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of run) events.push(event);
  return events;
}

/** Two tool calls that each wait for the other to start: proves they really run concurrently. */
function rendezvousTools() {
  let arrived = 0;
  let release!: () => void;
  const bothStarted = new Promise<void>((resolve) => (release = resolve));
  const arrive = async () => {
    arrived += 1;
    if (arrived === 2) release();
    await bothStarted;
  };
  const getWeather = new FunctionTool({
    name: 'get_weather',
    description: 'Weather of a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: async (args) => {
      await arrive();
      return { city: args.city, forecast: 'sunny' };
    },
  });
  const getTraffic = new FunctionTool({
    name: 'get_traffic',
    description: 'Traffic of a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: async () => {
      await arrive();
      throw new RangeError('traffic feed offline');
    },
  });
  return [getWeather, getTraffic];
}

describe('telemetry of a real run', () => {
  let h: TelemetryHarness;
  afterEach(async () => {
    await h.close();
  });

  it('traces run > agent > model call > parallel tool calls, with errors and token usage', async () => {
    h = harness({ captureContent: true });
    const model = new FakeModel([
      {
        content: {
          role: 'model',
          parts: [
            { functionCall: { id: 'c-weather', name: 'get_weather', args: { city: 'Oslo' } } },
            { functionCall: { id: 'c-traffic', name: 'get_traffic', args: { city: 'Oslo' } } },
          ],
        },
        usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 9 },
        finishReason: 'STOP',
      },
      {
        content: { role: 'model', parts: [{ text: 'Sunny; traffic unknown.' }] },
        usageMetadata: { promptTokenCount: 80, candidatesTokenCount: 5 },
      },
    ]);
    const agent = new LlmAgent({
      name: 'city_guide',
      description: 'Answers city questions.',
      model,
      tools: rendezvousTools(),
    });
    const runner = new Runner({ appName: 'guide', agent, autoCreateSession: true });
    await drain(
      runner.run({ userId: 'u', sessionId: 'sess-1', newMessage: userContent('Oslo today?') }),
    );

    const run = h.span('invocation');
    const agentSpan = h.span('invoke_agent city_guide');
    const modelSpans = h.spans().filter((s) => s.name === 'call_llm');
    const weather = h.span('execute_tool get_weather');
    const traffic = h.span('execute_tool get_traffic');
    const id = (s: ReadableSpan) => s.spanContext().spanId;

    expect(parentId(run)).toBeUndefined();
    expect(parentId(agentSpan)).toBe(id(run));
    expect(modelSpans).toHaveLength(2);
    for (const span of modelSpans) expect(parentId(span)).toBe(id(agentSpan));
    // Tool calls hang under the model call that requested them: run > agent > model call > tool call.
    expect(parentId(weather)).toBe(id(modelSpans[0]!));
    expect(parentId(traffic)).toBe(id(modelSpans[0]!));
    expect(new Set(h.spans().map((s) => s.spanContext().traceId)).size).toBe(1);

    expect(run.attributes['gcp.vertex.agent.session_id']).toBe('sess-1');
    expect(agentSpan.attributes).toMatchObject({
      'gen_ai.agent.name': 'city_guide',
      'gen_ai.agent.description': 'Answers city questions.',
    });
    expect(modelSpans[0]!.attributes).toMatchObject({
      'gen_ai.request.model': 'fake-model',
      'gen_ai.usage.input_tokens': 50,
      'gen_ai.usage.output_tokens': 9,
      'gen_ai.response.finish_reasons': ['stop'],
      'gcp.vertex.agent.invocation_id': run.attributes['gcp.vertex.agent.invocation_id'],
    });
    expect(weather.attributes).toMatchObject({
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.tool.call.id': 'c-weather',
    });
    expect(JSON.parse(weather.attributes['gcp.vertex.agent.tool_response'] as string)).toEqual({
      city: 'Oslo',
      forecast: 'sunny',
    });
    expect(weather.status.code).toBe(SpanStatusCode.UNSET);
    expect(traffic.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: expect.stringContaining('traffic feed offline'),
    });
    expect(traffic.events.some((e) => e.name === 'exception')).toBe(true);
    // The tool failure is reported to the model, not fatal: the run itself succeeds.
    expect(run.status.code).toBe(SpanStatusCode.UNSET);

    const tokens = await h.metric('gen_ai.client.token.usage');
    const input = tokens.find((p) => p.attributes['gen_ai.token.type'] === 'input')!.value as {
      sum: number;
      count: number;
    };
    expect(input).toMatchObject({ sum: 130, count: 2 });
  });

  it('nests a sub-agent reached by transfer under the agent that transferred', async () => {
    h = harness();
    const specialist = new LlmAgent({
      name: 'specialist',
      description: 'Knows the details.',
      model: new FakeModel(['Here are the details.']),
    });
    const coordinator = new LlmAgent({
      name: 'coordinator',
      model: new FakeModel([
        { functionCalls: [{ name: 'transfer_to_agent', args: { agent_name: 'specialist' } }] },
      ]),
      subAgents: [specialist],
    });
    const runner = new Runner({ appName: 'team', agent: coordinator, autoCreateSession: true });
    const events = await drain(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('details please') }),
    );
    expect(events.at(-1)?.author).toBe('specialist');

    const coordinatorSpan = h.span('invoke_agent coordinator');
    const specialistSpan = h.span('invoke_agent specialist');
    expect(parentId(specialistSpan)).toBe(coordinatorSpan.spanContext().spanId);
    const specialistCalls = h
      .spans()
      .filter((s) => s.name === 'call_llm' && s.attributes['gen_ai.agent.name'] === 'specialist');
    expect(specialistCalls).toHaveLength(1);
    expect(parentId(specialistCalls[0]!)).toBe(specialistSpan.spanContext().spanId);
    const transfer = h.span('execute_tool transfer_to_agent');
    const coordinatorCall = h
      .spans()
      .find((s) => s.name === 'call_llm' && s.attributes['gen_ai.agent.name'] === 'coordinator')!;
    expect(parentId(transfer)).toBe(coordinatorCall.spanContext().spanId);
    expect(parentId(coordinatorCall)).toBe(coordinatorSpan.spanContext().spanId);
  });

  it('keeps each branch of a parallel agent in its own subtree while they run concurrently', async () => {
    h = harness();
    let arrived = 0;
    let release!: () => void;
    const bothBranchesInTools = new Promise<void>((resolve) => (release = resolve));
    const lookup = (name: string) =>
      new FunctionTool({
        name,
        description: `Looks up ${name}.`,
        execute: async () => {
          arrived += 1;
          if (arrived === 2) release();
          await bothBranchesInTools;
          return { found: name };
        },
      });
    const branch = (name: string, tool: string) =>
      new LlmAgent({
        name,
        model: new FakeModel([{ functionCalls: [{ name: tool, args: {} }] }, `${name} done`]),
        tools: [lookup(tool)],
      });
    const research = new ParallelAgent({
      name: 'research',
      subAgents: [branch('flights', 'find_flights'), branch('hotels', 'find_hotels')],
    });
    const runner = new Runner({ appName: 'trip', agent: research, autoCreateSession: true });
    await drain(runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('plan') }));

    const id = (s: ReadableSpan) => s.spanContext().spanId;
    const parallel = h.span('invoke_agent research');
    expect(parentId(parallel)).toBe(id(h.span('invocation')));
    for (const [agentName, tool] of [
      ['flights', 'find_flights'],
      ['hotels', 'find_hotels'],
    ] as const) {
      const agentSpan = h.span(`invoke_agent ${agentName}`);
      expect(parentId(agentSpan)).toBe(id(parallel));
      const calls = h
        .spans()
        .filter((s) => s.name === 'call_llm' && s.attributes['gen_ai.agent.name'] === agentName);
      expect(calls).toHaveLength(2);
      for (const call of calls) expect(parentId(call)).toBe(id(agentSpan));
      expect(calls.map(id)).toContain(parentId(h.span(`execute_tool ${tool}`)));
    }
  });

  it('marks the run and the model call as failed when the model throws', async () => {
    h = harness();
    const agent = new LlmAgent({
      name: 'fragile',
      model: new FakeModel([new TypeError('connection reset')]),
    });
    const runner = new Runner({ appName: 'fragile', agent, autoCreateSession: true });
    await drain(runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('hi') })).catch(
      () => undefined,
    );
    const model = h.span('call_llm');
    expect(model.status.code).toBe(SpanStatusCode.ERROR);
    expect(model.attributes['error.type']).toBe('TypeError');
    expect(h.spans().every((s) => s.ended)).toBe(true);
  });
});
