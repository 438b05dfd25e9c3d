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
