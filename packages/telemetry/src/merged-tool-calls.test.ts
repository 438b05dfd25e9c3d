import { publish, type LlmRequest } from '@adk/core';
import type { HrTime } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';

import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

import { harness, parentId, type TelemetryHarness } from '../test/harness';
import { MergedToolCallSpans } from './merged-tool-calls';

const MERGED = 'execute_tool (merged)';
const ids = { invocationId: 'inv-m', appName: 'shop', userId: 'alice', sessionId: 'session-m' };
const request: LlmRequest = { model: 'm', contents: [], config: {} };
const ms = (time: HrTime) => time[0] * 1000 + time[1] / 1e6;

/** Synthetic lifecycle messages with explicit clocks (`performance.now()` values). */
const send = {
  run(spanId: string) {
    publish('runStart', () => ({
      ...ids,
      spanId,
      parentSpanId: undefined,
      startTime: 0,
      agentName: 'root',
    }));
  },
  runEnd(spanId: string) {
    publish('runEnd', () => ({
      spanId,
      invocationId: ids.invocationId,
      durationMs: 100,
      eventCount: 4,
    }));
  },
  agent(spanId: string, parentSpanId: string) {
    publish('agentStart', () => ({
      ...ids,
      spanId,
      parentSpanId,
      startTime: 1,
      agentName: 'root',
      agentDescription: undefined,
      branch: undefined,
    }));
  },
  agentEnd(spanId: string) {
    publish('agentEnd', () => ({ spanId, invocationId: ids.invocationId, durationMs: 90 }));
  },
  model(spanId: string, parentSpanId: string, startTime = 2) {
    publish('modelCallStart', () => ({
      ...ids,
      spanId,
      parentSpanId,
      startTime,
      agentName: 'root',
      model: 'm',
      stream: false,
      request,
    }));
  },
  /** The model's final response, asking for `calls` (name and id) in this order. */
  modelEnd(spanId: string, calls: { name: string; id?: string }[]) {
    publish('modelCallEnd', () => ({
      spanId,
      invocationId: ids.invocationId,
      durationMs: 3,
      response: {
        content: {
          role: 'model',
          parts: calls.map((c) => ({ functionCall: { name: c.name, id: c.id, args: {} } })),
        },
      },
      usage: undefined,
      finishReason: 'STOP',
    }));
  },
  tool(
    spanId: string,
    modelSpanId: string,
    name: string,
    functionCallId: string,
    startTime: number,
  ) {
    publish('toolCallStart', () => ({
      ...ids,
      spanId,
      parentSpanId: modelSpanId,
      startTime,
      agentName: 'root',
      toolName: name,
      toolDescription: `${name} tool`,
      functionCallId,
      args: { q: name },
    }));
  },
  toolEnd(spanId: string, durationMs: number, result: unknown) {
    publish('toolCallEnd', () => ({ spanId, invocationId: ids.invocationId, durationMs, result }));
  },
  toolError(spanId: string, durationMs: number, error: unknown) {
    publish('toolCallError', () => ({ spanId, invocationId: ids.invocationId, durationMs, error }));
  },
  /** Core's message naming the merged function-response event of model call `modelSpanId`. */
  merged(modelSpanId: string, eventId: string, functionCallIds: string[]) {
    publish('toolCallsMerged', () => ({
      ...ids,
      spanId: `merged-${eventId}`,
      parentSpanId: modelSpanId,
      agentName: 'root',
      eventId,
      functionCallIds,
    }));
  },
};

describe('execute_tool (merged)', () => {
  let h: TelemetryHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('stands for the merged response of several calls: a sibling of the tool spans under call_llm', () => {
    h = harness();
    send.run('r');
    send.agent('a', 'r');
    send.model('m', 'a');
    send.modelEnd('m', [
      { name: 'weather', id: 'c1' },
      { name: 'traffic', id: 'c2' },
    ]);
    // The second call starts first and the first call ends last: order and timing must not care.
    send.tool('t2', 'm', 'traffic', 'c2', 10);
    send.tool('t1', 'm', 'weather', 'c1', 11);
    send.toolEnd('t2', 4, { jams: 0 });
    expect(h.spans().filter((s) => s.name === MERGED)).toHaveLength(0);
    send.toolEnd('t1', 20, { sunny: true });
    // Every call has ended: the span waits for core's message naming the merged event.
    expect(h.spans().filter((s) => s.name === MERGED)).toHaveLength(0);
    send.merged('m', 'event-9', ['c1', 'c2']);
    // Emitted on that message, before the agent or the run ends.
    const merged = h.span(MERGED);
    send.agentEnd('a');
    send.runEnd('r');

    const model = h.span('call_llm');
    expect(parentId(merged)).toBe(model.spanContext().spanId);
    expect(parentId(h.span('execute_tool weather'))).toBe(model.spanContext().spanId);
    expect(merged.spanContext().traceId).toBe(model.spanContext().traceId);
    expect(merged.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': '(merged tools)',
      'gen_ai.tool.description': '(merged tools)',
      'gen_ai.agent.name': 'root',
      'gen_ai.conversation.id': 'session-m',
      'gcp.vertex.agent.invocation_id': 'inv-m',
      'gcp.vertex.agent.session_id': 'session-m',
      // The merged event's id, where the Python ADK puts it.
      'gen_ai.tool.call.id': 'event-9',
      'gcp.vertex.agent.event_id': 'event-9',
      'adk.tool.merged_call_ids': ['c1', 'c2'],
      'gcp.vertex.agent.tool_call_args': 'N/A',
      'gcp.vertex.agent.tool_response': '{}',
      'gcp.vertex.agent.llm_request': '{}',
      'gcp.vertex.agent.llm_response': '{}',
    });
    // From the first call's start (10) to the last call's end (11 + 20).
    const origin = performance.timeOrigin;
    expect(ms(merged.startTime)).toBeCloseTo(origin + 10, 3);
    expect(ms(merged.endTime)).toBeCloseTo(origin + 31, 3);
    expect(h.spans().filter((s) => s.name === MERGED)).toHaveLength(1);
  });

  it('records the merged responses in call order when content is captured, failures included', () => {
    h = harness({ captureContent: true });
    send.run('r');
    send.agent('a', 'r');
    send.model('m', 'a');
    send.modelEnd('m', [
      { name: 'weather', id: 'c1' },
      { name: 'traffic', id: 'c2' },
    ]);
    send.tool('t1', 'm', 'weather', 'c1', 10);
    send.tool('t2', 'm', 'traffic', 'c2', 10);
    send.toolError('t2', 2, new RangeError('feed offline'));
    send.toolEnd('t1', 3, { sunny: true });
    send.merged('m', 'event-1', ['c1', 'c2']);
    const merged = h.span(MERGED);
    expect(JSON.parse(merged.attributes['gcp.vertex.agent.tool_response'] as string)).toEqual({
      content: {
        role: 'user',
        parts: [
          { functionResponse: { id: 'c1', name: 'weather', response: { sunny: true } } },
          {
            functionResponse: {
              id: 'c2',
              name: 'traffic',
              response: { error: { type: 'RangeError', message: 'feed offline' } },
            },
          },
        ],
      },
    });
  });

  it('is not emitted for a model response with a single call', () => {
    h = harness();
    send.run('r');
    send.agent('a', 'r');
    send.model('m', 'a');
    send.modelEnd('m', [{ name: 'weather', id: 'c1' }]);
    send.tool('t1', 'm', 'weather', 'c1', 10);
    send.toolEnd('t1', 3, {});
    send.agentEnd('a');
    send.runEnd('r');
    expect(h.spans().map((s) => s.name)).not.toContain(MERGED);
    expect(h.spans()).toHaveLength(4);
  });

  it('waits for the next step when a call is never traced (an unknown tool), then covers the traced ones', () => {
    h = harness();
    send.run('r');
    send.agent('a', 'r');
    send.model('m1', 'a');
    send.modelEnd('m1', [
      { name: 'weather', id: 'c1' },
      { name: 'no_such_tool', id: 'c2' },
      { name: 'traffic', id: 'c3' },
    ]);
    send.tool('t1', 'm1', 'weather', 'c1', 10);
    send.tool('t3', 'm1', 'traffic', 'c3', 10);
    send.toolEnd('t1', 1, {});
    send.toolEnd('t3', 1, {});
    expect(h.spans().map((s) => s.name)).not.toContain(MERGED);
    send.model('m2', 'a', 20); // the agent's next step: the calls of m1 are over
    const merged = h.span(MERGED);
    expect(merged.attributes['adk.tool.merged_call_ids']).toEqual(['c1', 'c3']);
    expect(parentId(merged)).toBe(h.span('call_llm').spanContext().spanId);
  });

  it('is emitted when the agent or the run ends first, and never without a finished call', () => {
    h = harness();
    send.run('r');
    send.agent('a', 'r');
    send.model('m1', 'a');
    send.modelEnd('m1', [
      { name: 'weather', id: 'c1' },
      { name: 'no_such_tool', id: 'c2' },
    ]);
    send.tool('t1', 'm1', 'weather', 'c1', 10);
    send.toolEnd('t1', 1, {});
    send.agentEnd('a');
    expect(h.span(MERGED).attributes['adk.tool.merged_call_ids']).toEqual(['c1']);

    send.agent('a2', 'r');
    send.model('m2', 'a2');
    send.modelEnd('m2', [
      { name: 'x', id: 'd1' },
      { name: 'y', id: 'd2' },
    ]);
    send.tool('t4', 'm2', 'x', 'd1', 30); // aborted: never ends
    send.runEnd('r');
    expect(h.spans().filter((s) => s.name === MERGED)).toHaveLength(1);
  });

  it('orders calls by start when the model gave no ids', () => {
    h = harness();
    send.run('r');
    send.agent('a', 'r');
    send.model('m', 'a');
    send.modelEnd('m', [{ name: 'weather' }, { name: 'traffic' }]);
    send.tool('t1', 'm', 'weather', 'adk-1', 10);
    send.tool('t2', 'm', 'traffic', 'adk-2', 10);
    send.toolEnd('t2', 1, {});
    send.toolEnd('t1', 1, {});
    send.merged('m', 'event-2', ['adk-1', 'adk-2']);
    expect(h.span(MERGED).attributes['adk.tool.merged_call_ids']).toEqual(['adk-1', 'adk-2']);
  });

  it('with a call never traced, is emitted on the merged message with the traced calls', () => {
    h = harness();
    send.run('r');
    send.agent('a', 'r');
    send.model('m', 'a');
    send.modelEnd('m', [
      { name: 'weather', id: 'c1' },
      { name: 'no_such_tool', id: 'c2' },
    ]);
    send.tool('t1', 'm', 'weather', 'c1', 10);
    send.toolEnd('t1', 1, {});
    send.merged('m', 'event-3', ['c1', 'c2']);
    const merged = h.span(MERGED);
    expect(merged.attributes['gcp.vertex.agent.event_id']).toBe('event-3');
    expect(merged.attributes['adk.tool.merged_call_ids']).toEqual(['c1']);
  });

  it('ignores a merged message of a model call it does not track', () => {
    h = harness();
    send.run('r');
    send.agent('a', 'r');
    send.merged('unknown-model', 'event-4', ['c1', 'c2']);
    send.agentEnd('a');
    send.runEnd('r');
    expect(h.spans().map((s) => s.name)).not.toContain(MERGED);
  });

  it('without merged messages (an older core), falls back to the last call end, no event id', () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const spans = new MergedToolCallSpans(provider.getTracer('t'), false, false);
    const modelStart = { ...ids, spanId: 'm', parentSpanId: 'a', startTime: 2, agentName: 'root' };
    spans.modelStarted({ ...modelStart, model: 'm', stream: false, request });
    spans.modelEnded(
      {
        spanId: 'm',
        invocationId: ids.invocationId,
        durationMs: 1,
        response: {
          content: {
            role: 'model',
            parts: [
              { functionCall: { name: 'a', id: 'c1', args: {} } },
              { functionCall: { name: 'b', id: 'c2', args: {} } },
            ],
          },
        },
        usage: undefined,
        finishReason: 'STOP',
      },
      { traceId: '0'.repeat(31) + '1', spanId: '0'.repeat(15) + '1', traceFlags: 1 },
    );
    for (const [spanId, callId] of [
      ['t1', 'c1'],
      ['t2', 'c2'],
    ] as const) {
      spans.toolStarted({
        ...ids,
        spanId,
        parentSpanId: 'm',
        startTime: 5,
        agentName: 'root',
        toolName: callId,
        toolDescription: undefined,
        functionCallId: callId,
        args: {},
      });
    }
    spans.toolEnded('t1', 1, {});
    expect(exporter.getFinishedSpans()).toHaveLength(0);
    spans.toolEnded('t2', 1, {});
    const [merged] = exporter.getFinishedSpans();
    expect(merged?.name).toBe(MERGED);
    expect(merged?.attributes['adk.tool.merged_call_ids']).toEqual(['c1', 'c2']);
    expect(merged?.attributes).not.toHaveProperty('gcp.vertex.agent.event_id');
    expect(merged?.attributes).not.toHaveProperty('gen_ai.tool.call.id');
  });
});
