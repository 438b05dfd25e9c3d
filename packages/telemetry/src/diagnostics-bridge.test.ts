import { hasSubscribers, publish, type LlmRequest } from '@adk/core';
import { SpanStatusCode, type HrTime, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';

import { setupTelemetry } from './setup-telemetry';
import { harness, parentId, type TelemetryHarness } from '../test/harness';

const hrTimeToMilliseconds = (time: HrTime) => time[0] * 1000 + time[1] / 1e6;

const ids = { invocationId: 'inv-1', appName: 'shop', userId: 'alice', sessionId: 'session-9' };
const request: LlmRequest = {
  model: 'gemini-2.5-flash',
  systemInstruction: 'Be brief.',
  contents: [
    {
      role: 'user',
      parts: [
        { text: 'What is in this picture?' },
        { inlineData: { mimeType: 'image/png', data: 'AAAA' } },
      ],
    },
  ],
  config: { temperature: 0.2, topP: 0.9, maxOutputTokens: 256 },
};

/** Publishers for synthetic lifecycle messages, as the runtime sends them. */
function start(
  kind: 'run' | 'agent' | 'model' | 'tool',
  spanId: string,
  parentSpanId: string | undefined,
  extra: Record<string, unknown> = {},
) {
  const base = { ...ids, spanId, parentSpanId, startTime: performance.now() };
  switch (kind) {
    case 'run':
      publish('runStart', () => ({ ...base, agentName: 'root', ...extra }));
      break;
    case 'agent':
      publish('agentStart', () => ({
        ...base,
        agentName: 'root',
        agentDescription: 'Routes requests',
        branch: undefined,
        ...extra,
      }));
      break;
    case 'model':
      publish('modelCallStart', () => ({
        ...base,
        agentName: 'root',
        model: request.model,
        stream: false,
        request,
        ...extra,
      }));
      break;
    case 'tool':
      publish('toolCallStart', () => ({
        ...base,
        agentName: 'root',
        toolName: 'get_weather',
        toolDescription: 'Weather by city',
        functionCallId: `call-${spanId}`,
        args: { city: 'Paris' },
        ...extra,
      }));
      break;
  }
}

function endModel(spanId: string, durationMs = 12) {
  publish('modelCallEnd', () => ({
    spanId,
    invocationId: ids.invocationId,
    durationMs,
    response: {
      content: { role: 'model', parts: [{ text: 'A cat.' }] },
      finishReason: 'STOP',
      modelVersion: 'gemini-2.5-flash-001',
    },
    usage: {
      promptTokenCount: 120,
      candidatesTokenCount: 7,
      totalTokenCount: 127,
      cachedContentTokenCount: 100,
    },
    finishReason: 'STOP',
  }));
}

function end(kind: 'run' | 'agent' | 'tool', spanId: string, durationMs = 5) {
  const base = { spanId, invocationId: ids.invocationId, durationMs };
  if (kind === 'run') publish('runEnd', () => ({ ...base, eventCount: 3 }));
  if (kind === 'agent') publish('agentEnd', () => base);
  if (kind === 'tool') publish('toolCallEnd', () => ({ ...base, result: { temperature: 21 } }));
}

describe('DiagnosticsBridge with synthetic lifecycle messages', () => {
  let h: TelemetryHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('builds the tree invocation > invoke_agent > call_llm > execute_tool with gen_ai attributes', async () => {
    h = harness();
    start('run', 'r1', undefined);
    start('agent', 'a1', 'r1');
    start('model', 'm1', 'a1');
    endModel('m1');
    start('tool', 't1', 'm1');
    end('tool', 't1');
    end('agent', 'a1');
    end('run', 'r1');

    const run = h.span('invocation');
    const agent = h.span('invoke_agent root');
    const model = h.span('call_llm');
    const tool = h.span('execute_tool get_weather');
    expect(parentId(run)).toBeUndefined();
    expect(parentId(agent)).toBe(run.spanContext().spanId);
    expect(parentId(model)).toBe(agent.spanContext().spanId);
    expect(parentId(tool)).toBe(model.spanContext().spanId);
    expect(new Set([run, agent, model, tool].map((s) => s.spanContext().traceId)).size).toBe(1);

    expect(run.attributes).toMatchObject({
      'gen_ai.agent.name': 'root',
      'gen_ai.conversation.id': 'session-9',
      'gcp.vertex.agent.invocation_id': 'inv-1',
      'gcp.vertex.agent.session_id': 'session-9',
      'adk.run.event_count': 3,
    });
    expect(agent.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'root',
      'gen_ai.agent.description': 'Routes requests',
      'gen_ai.conversation.id': 'session-9',
    });
    expect(model.attributes).toMatchObject({
      'gen_ai.system': 'gcp.vertex.agent',
      'gen_ai.request.model': 'gemini-2.5-flash',
      'gen_ai.request.temperature': 0.2,
      'gen_ai.request.top_p': 0.9,
      'gen_ai.request.max_tokens': 256,
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 7,
      'gen_ai.usage.cache_read.input_tokens': 100,
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.response.model': 'gemini-2.5-flash-001',
      'gcp.vertex.agent.invocation_id': 'inv-1',
      'gcp.vertex.agent.session_id': 'session-9',
    });
    expect(tool.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.tool.description': 'Weather by city',
      'gen_ai.tool.call.id': 'call-t1',
    });
    for (const span of [run, agent, model, tool])
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('forgets the spans of a run once it ends, so long-lived processes do not accumulate them', async () => {
    h = harness();
    start('run', 'r1', undefined);
    start('agent', 'a1', 'r1');
    start('model', 'm1', 'a1');
    endModel('m1');
    end('agent', 'a1');
    end('run', 'r1');
    // A straggler naming a span of the finished run starts a new trace instead of reviving it.
    start('tool', 'late', 'm1');
    end('tool', 'late');
    const late = h.span('execute_tool get_weather');
    expect(parentId(late)).toBeUndefined();
    expect(late.spanContext().traceId).not.toBe(h.span('invocation').spanContext().traceId);
  });

  it('gives each span the timing of its messages', async () => {
    h = harness();
    const startTime = performance.now();
    publish('toolCallStart', () => ({
      ...ids,
      spanId: 't1',
      parentSpanId: undefined,
      startTime,
      agentName: 'root',
      toolName: 'slow',
      toolDescription: undefined,
      functionCallId: 'c1',
      args: {},
    }));
    publish('toolCallEnd', () => ({
      spanId: 't1',
      invocationId: 'inv-1',
      durationMs: 1500,
      result: 'ok',
    }));
    const span = h.span('execute_tool slow');
    expect(hrTimeToMilliseconds(span.startTime)).toBeCloseTo(performance.timeOrigin + startTime, 0);
    expect(hrTimeToMilliseconds(span.duration)).toBeCloseTo(1500, 0);
  });

  it("adds a tool's own attributes (an MCP tool's server and transport) without overriding ours", async () => {
    h = harness();
    start('tool', 't1', undefined, {
      toolAttributes: {
        'mcp.server.name': 'files',
        'mcp.transport': 'stdio',
        'gen_ai.tool.name': 'spoofed',
      },
    });
    end('tool', 't1');
    const span = h.span('execute_tool get_weather');
    expect(span.attributes).toMatchObject({
      'gen_ai.tool.name': 'get_weather',
      'mcp.server.name': 'files',
      'mcp.transport': 'stdio',
    });
  });

  it('parents parallel tool calls to the model call that asked for them, whatever order they finish in', async () => {
    h = harness();
    start('run', 'r1', undefined);
    start('agent', 'a1', 'r1');
    start('model', 'm1', 'a1');
    endModel('m1');
    start('tool', 't1', 'm1', { toolName: 'first' });
    start('tool', 't2', 'm1', { toolName: 'second' });
    start('tool', 't3', 'm1', { toolName: 'third' });
    end('tool', 't2');
    end('tool', 't3');
    end('tool', 't1');
    end('agent', 'a1');
    end('run', 'r1');
    const modelId = h.span('call_llm').spanContext().spanId;
    for (const name of ['first', 'second', 'third']) {
      const tool = h.span(`execute_tool ${name}`);
      expect(parentId(tool)).toBe(modelId);
      expect(tool.attributes['gen_ai.tool.call.id']).toBe(
        `call-t${['first', 'second', 'third'].indexOf(name) + 1}`,
      );
    }
  });

  it('nests sub-agents and their model calls under the calling agent', async () => {
    h = harness();
    start('run', 'r1', undefined);
    start('agent', 'a1', 'r1', { agentName: 'coordinator' });
    start('agent', 'a2', 'a1', { agentName: 'researcher', branch: 'coordinator.researcher' });
    start('model', 'm2', 'a2', { agentName: 'researcher' });
    endModel('m2');
    end('agent', 'a2');
    start('agent', 'a3', 'a1', { agentName: 'writer' });
    end('agent', 'a3');
    end('agent', 'a1');
    end('run', 'r1');
    const coordinator = h.span('invoke_agent coordinator');
    const researcher = h.span('invoke_agent researcher');
    const writer = h.span('invoke_agent writer');
    expect(parentId(researcher)).toBe(coordinator.spanContext().spanId);
    expect(parentId(writer)).toBe(coordinator.spanContext().spanId);
    expect(parentId(h.span('call_llm'))).toBe(researcher.spanContext().spanId);
    expect(researcher.attributes['adk.branch']).toBe('coordinator.researcher');
    expect(h.span('call_llm').attributes['gen_ai.agent.name']).toBe('researcher');
  });

  it('marks failed operations with status ERROR, error.type and an exception event', async () => {
    h = harness();
    class ToolBoom extends Error {
      override name = 'ToolBoom';
    }
    start('run', 'r1', undefined);
    start('agent', 'a1', 'r1');
    start('tool', 't1', 'a1');
    publish('toolCallError', () => ({
      spanId: 't1',
      invocationId: 'inv-1',
      durationMs: 3,
      error: new ToolBoom('weather API down'),
    }));
    start('model', 'm1', 'a1');
    publish('modelCallError', () => ({
      spanId: 'm1',
      invocationId: 'inv-1',
      durationMs: 4,
      error: 'socket hang up',
    }));
    publish('agentError', () => ({
      spanId: 'a1',
      invocationId: 'inv-1',
      durationMs: 9,
      error: new ToolBoom('weather API down'),
    }));
    publish('runError', () => ({
      spanId: 'r1',
      invocationId: 'inv-1',
      durationMs: 10,
      error: new ToolBoom('weather API down'),
    }));

    const tool = h.span('execute_tool get_weather');
    expect(tool.status).toEqual({ code: SpanStatusCode.ERROR, message: 'weather API down' });
    expect(tool.attributes['error.type']).toBe('ToolBoom');
    expect(tool.events.map((e) => e.name)).toEqual(['exception']);
    expect(tool.events[0]?.attributes).toMatchObject({
      'exception.type': 'ToolBoom',
      'exception.message': 'weather API down',
    });
    const model = h.span('call_llm');
    expect(model.status).toEqual({ code: SpanStatusCode.ERROR, message: 'socket hang up' });
    expect(model.attributes['error.type']).toBe('string');
    for (const name of ['invoke_agent root', 'invocation'])
      expect(h.span(name).status.code).toBe(SpanStatusCode.ERROR);
  });

  it('marks a model response that is itself an error (a safety block) as failed', async () => {
    h = harness();
    start('model', 'm1', undefined);
    publish('modelCallEnd', () => ({
      spanId: 'm1',
      invocationId: 'inv-1',
      durationMs: 2,
      response: { errorCode: 'SAFETY', errorMessage: 'Blocked for safety' },
      usage: undefined,
      finishReason: 'SAFETY',
    }));
    const model = h.span('call_llm');
    expect(model.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Blocked for safety' });
    expect(model.attributes['error.type']).toBe('SAFETY');
    expect(model.attributes['gen_ai.response.finish_reasons']).toEqual(['safety']);
  });

  it('leaves content out of spans by default', async () => {
    h = harness();
    start('model', 'm1', undefined);
    endModel('m1');
    start('tool', 't1', undefined);
    end('tool', 't1');
    const attributes = {
      ...h.span('call_llm').attributes,
      ...h.span('execute_tool get_weather').attributes,
    };
    for (const key of [
      'gcp.vertex.agent.llm_request',
      'gcp.vertex.agent.llm_response',
      'gcp.vertex.agent.tool_call_args',
      'gcp.vertex.agent.tool_response',
    ]) {
      expect(attributes[key], key).toBeUndefined();
    }
  });

  it('records requests, responses, tool arguments and results when asked, without inline bytes', async () => {
    h = harness({ captureContent: true });
    start('model', 'm1', undefined);
    endModel('m1');
    start('tool', 't1', undefined);
    end('tool', 't1');
    const model = h.span('call_llm');
    const recordedRequest = JSON.parse(model.attributes['gcp.vertex.agent.llm_request'] as string);
    expect(recordedRequest.systemInstruction).toBe('Be brief.');
    expect(recordedRequest.contents[0].parts[0]).toEqual({ text: 'What is in this picture?' });
    expect(recordedRequest.contents[0].parts[1]).toEqual({
      inlineData: { mimeType: 'image/png', omittedBytes: 3 },
    });
    expect(
      JSON.parse(model.attributes['gcp.vertex.agent.llm_response'] as string).content.parts[0].text,
    ).toBe('A cat.');
    const tool = h.span('execute_tool get_weather');
    expect(JSON.parse(tool.attributes['gcp.vertex.agent.tool_call_args'] as string)).toEqual({
      city: 'Paris',
    });
    expect(JSON.parse(tool.attributes['gcp.vertex.agent.tool_response'] as string)).toEqual({
      temperature: 21,
    });
  });

  it('records duration histograms and token usage metrics', async () => {
    h = harness();
    start('run', 'r1', undefined);
    start('agent', 'a1', 'r1');
    start('model', 'm1', 'a1');
    endModel('m1', 250);
    start('tool', 't1', 'a1');
    publish('toolCallError', () => ({
      spanId: 't1',
      invocationId: 'inv-1',
      durationMs: 40,
      error: new TypeError('bad'),
    }));
    end('agent', 'a1', 400);
    end('run', 'r1', 500);

    const durations = await h.metric('gen_ai.client.operation.duration');
    const byOperation = (name: string) =>
      durations.filter((p) => p.attributes['gen_ai.operation.name'] === name);
    const modelPoint = byOperation('generate_content')[0]!;
    expect(modelPoint.attributes['gen_ai.request.model']).toBe('gemini-2.5-flash');
    expect((modelPoint.value as { sum: number; count: number }).sum).toBeCloseTo(0.25);
    const toolPoint = byOperation('execute_tool')[0]!;
    expect(toolPoint.attributes['error.type']).toBe('TypeError');
    expect((byOperation('invoke_agent')[0]!.value as { sum: number }).sum).toBeCloseTo(0.4);
    const runs = await h.metric('adk.invocation.duration');
    expect((runs[0]!.value as { sum: number }).sum).toBeCloseTo(0.5);

    const tokens = await h.metric('gen_ai.client.token.usage');
    const ofType = (type: string) =>
      tokens.find((p) => p.attributes['gen_ai.token.type'] === type)!.value as { sum: number };
    expect(ofType('input').sum).toBe(120);
    expect(ofType('output').sum).toBe(7);
    const totals = await h.metric('adk.token.count');
    expect(totals.map((p) => p.value).sort()).toEqual([120, 7].sort());
  });

  it('subscribes only while set up, so an app without telemetry pays nothing', async () => {
    expect(hasSubscribers('modelCallStart')).toBe(false);
    h = harness();
    expect(hasSubscribers('modelCallStart')).toBe(true);
    start('run', 'r1', undefined);
    await h.telemetry.shutdown();
    expect(hasSubscribers('modelCallStart')).toBe(false);
    // The run still open at shutdown was ended and marked; later messages are ignored.
    expect(h.span('invocation').attributes['adk.span.interrupted']).toBe(true);
    start('run', 'r2', undefined);
    expect(h.spans()).toHaveLength(1);
  });

  it('ignores end messages of spans it never saw start', async () => {
    h = harness();
    end('tool', 'unknown');
    endModel('unknown');
    publish('runError', () => ({
      spanId: 'unknown',
      invocationId: 'inv-1',
      durationMs: 1,
      error: new Error('x'),
    }));
    expect(h.spans()).toEqual([]);
  });

  it('never lets a telemetry failure reach the agent run', async () => {
    const throwing: Tracer = {
      startSpan: () => {
        throw new TypeError('exporter exploded');
      },
      startActiveSpan: () => {
        throw new TypeError('exporter exploded');
      },
    };
    const provider: TracerProvider = { getTracer: () => throwing };
    const telemetry = setupTelemetry({ tracerProvider: provider, meterProvider: false });
    try {
      expect(() => start('run', 'r1', undefined)).not.toThrow();
      expect(() => end('run', 'r1')).not.toThrow();
    } finally {
      await telemetry.shutdown();
    }
    h = harness();
  });
});
