import { createEvent, modelContent, publish } from '@adk/core';
import { afterEach, describe, expect, it } from 'vitest';

import { TraceStore } from './trace-store';

const scope = { invocationId: 'inv-1', appName: 'app', userId: 'u', sessionId: 's1' };
let store: TraceStore;
afterEach(() => store.stop());

function publishRun(sessionId: string) {
  const base = { ...scope, sessionId };
  publish('runStart', () => ({
    ...base,
    spanId: `${sessionId}-run`,
    parentSpanId: undefined,
    startTime: 1,
    agentName: 'router',
  }));
  publish('modelCallStart', () => ({
    ...base,
    spanId: `${sessionId}-llm`,
    parentSpanId: `${sessionId}-run`,
    startTime: 2,
    agentName: 'router',
    model: 'demo',
    stream: false,
    request: { model: 'demo', contents: [], config: {} },
  }));
  publish('modelCallEnd', () => ({
    spanId: `${sessionId}-llm`,
    invocationId: 'inv-1',
    durationMs: 5,
    response: { content: modelContent('hi') },
    usage: { promptTokenCount: 3, candidatesTokenCount: 1 },
    finishReason: 'STOP',
  }));
  publish('toolCallStart', () => ({
    ...base,
    spanId: `${sessionId}-tool`,
    parentSpanId: `${sessionId}-run`,
    startTime: 8,
    agentName: 'router',
    toolName: 'get_weather',
    toolDescription: undefined,
    functionCallId: 'call-1',
    args: { city: 'Paris' },
  }));
  publish('toolCallError', () => ({
    spanId: `${sessionId}-tool`,
    invocationId: 'inv-1',
    durationMs: 1,
    error: new Error('boom'),
  }));
}

describe('TraceStore', () => {
  it('builds spans per session from the diagnostics channels and links events to them', () => {
    store = new TraceStore();
    store.start();
    publishRun('s1');
    const spans = store.sessionTrace('s1');
    expect(spans.map((s) => [s.name, s.parent_span_id])).toEqual([
      ['invocation', null],
      ['call_llm', 's1-run'],
      ['execute_tool get_weather', 's1-run'],
    ]);
    expect(spans[1]!.attributes['gen_ai.usage.input_tokens']).toBe(3);
    expect(spans[1]!.end_time! - spans[1]!.start_time).toBeCloseTo(5_000_000, -4);
    expect(spans[2]!.attributes['error.message']).toBe('boom');
    expect(spans[0]!.end_time).toBeNull();

    const answer = createEvent({
      invocationId: 'inv-1',
      author: 'router',
      content: modelContent('hi'),
    });
    store.linkEvent('s1', answer);
    expect(store.eventTrace(answer.id)).toMatchObject({
      span_id: 's1-llm',
      'gcp.vertex.agent.llm_response': JSON.stringify({ content: modelContent('hi') }),
    });
    const toolResult = createEvent({
      invocationId: 'inv-1',
      author: 'router',
      content: {
        role: 'user',
        parts: [{ functionResponse: { id: 'call-1', name: 'get_weather', response: {} } }],
      },
    });
    store.linkEvent('s1', toolResult);
    expect(store.eventTrace(toolResult.id)).toMatchObject({ span_id: 's1-tool' });
  });

  it('keeps only the most recent sessions and stops recording when stopped', () => {
    store = new TraceStore(2);
    store.start();
    publishRun('a');
    publishRun('b');
    publishRun('c');
    expect(store.sessionTrace('a')).toEqual([]);
    expect(store.sessionTrace('c')).toHaveLength(3);
    store.stop();
    publishRun('d');
    expect(store.sessionTrace('d')).toEqual([]);
  });
});

describe('TraceStore limits', () => {
  const base = { invocationId: 'inv-1', appName: 'app', userId: 'u' };
  let counter = 0;
  /** One run of one model call whose request carries `history` contents of `size` characters. */
  function publishModelCall(
    sessionId: string,
    history: number,
    size: number,
    invocationId = 'inv-1',
  ) {
    const id = `${sessionId}-${counter++}`;
    const contents = Array.from({ length: history }, (_, index) => ({
      role: index % 2 === 0 ? 'user' : 'model',
      parts: [{ text: `${index}:${'h'.repeat(size)}` }],
    }));
    publish('modelCallStart', () => ({
      ...base,
      invocationId,
      sessionId,
      spanId: id,
      parentSpanId: undefined,
      startTime: 1,
      agentName: 'router',
      model: 'demo',
      stream: false,
      request: { model: 'demo', contents, config: {} },
    }));
    publish('modelCallEnd', () => ({
      spanId: id,
      invocationId,
      durationMs: 1,
      response: { content: modelContent('ok') },
      usage: undefined,
      finishReason: 'STOP',
    }));
    return id;
  }

  it('keeps what is new in a model request, not the history it repeats', () => {
    store = new TraceStore();
    store.start();
    publishModelCall('s1', 7, 10);
    const [span] = store.sessionTrace('s1');
    const request = JSON.parse(span!.attributes['gcp.vertex.agent.llm_request'] as string) as {
      contents: Array<{ role: string; parts: Array<{ text: string }> }>;
    };
    // From the last model turn on: the model's turn 5 and the user's message 6.
    expect(request.contents.map((content) => content.parts[0]!.text.split(':')[0])).toEqual([
      '5',
      '6',
    ]);
    expect(span!.attributes['gcp.vertex.agent.llm_request_contents_omitted']).toBe(5);
  });

  it('stays within its byte budget, dropping the least recently active sessions first', () => {
    const maxBytes = 200_000;
    store = new TraceStore({ maxBytes, maxResponseBytes: 50_000 });
    store.start();
    let first = '';
    for (let turn = 0; turn < 400; turn++) {
      const sessionId = `s${turn % 5}`;
      const spanId = publishModelCall(sessionId, 2 * turn + 1, 200, `inv-${turn}`);
      if (turn === 0) first = spanId;
      const answer = createEvent({
        invocationId: `inv-${turn}`,
        author: 'router',
        content: modelContent('ok'),
      });
      store.linkEvent(sessionId, answer);
      // A span alone may exceed what is left; never more than one span's worth over.
      expect(store.size).toBeLessThanOrEqual(maxBytes + 5_000);
      if (turn === 0) expect(store.eventTrace(answer.id)).toMatchObject({ span_id: first });
      if (turn === 0) first = answer.id;
    }
    // The first event's span is long gone, and its link with it.
    expect(store.eventTrace(first)).toBeUndefined();
    const answer = store.sessionTrace('s4');
    expect(answer.length).toBeGreaterThan(0);
    expect(JSON.stringify(answer).length).toBeLessThan(60_000);
    expect(answer.at(-1)!.trace_id).toBe('inv-399');
  });

  it('caps a huge attribute and keeps it valid JSON', () => {
    store = new TraceStore({ maxAttributeChars: 1_000 });
    store.start();
    publish('toolCallStart', () => ({
      ...base,
      sessionId: 's1',
      spanId: 'tool-1',
      parentSpanId: undefined,
      startTime: 1,
      agentName: 'router',
      toolName: 'dump',
      toolDescription: undefined,
      functionCallId: 'c1',
      args: { blob: 'x'.repeat(100_000) },
    }));
    const [span] = store.sessionTrace('s1');
    const args = span!.attributes['gcp.vertex.agent.tool_call_args'] as string;
    expect(args.length).toBeLessThanOrEqual(1_000);
    expect(JSON.parse(args)).toMatchObject({
      adk_truncated: true,
      original_length: JSON.stringify({ blob: 'x'.repeat(100_000) }).length,
    });
  });
});
