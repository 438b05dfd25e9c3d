import {
  FunctionTool,
  getFunctionResponses,
  LlmAgent,
  Runner,
  userContent,
  type Event,
} from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import type { HrTime } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';

import { harness, parentId, type TelemetryHarness } from './harness';

const ms = (time: HrTime) => time[0] * 1000 + time[1] / 1e6;
const id = (span: ReadableSpan) => span.spanContext().spanId;

const lookup = (name: string) =>
  new FunctionTool({
    name,
    description: `Looks up ${name}.`,
    execute: async () => ({ found: name }),
  });

/** Runs one turn; returns its events. */
async function run(calls: string[]): Promise<Event[]> {
  const model = new FakeModel([
    { functionCalls: calls.map((name) => ({ name, args: {} })) },
    'All looked up.',
  ]);
  const agent = new LlmAgent({
    name: 'finder',
    model,
    tools: [lookup('find_flights'), lookup('find_hotels'), lookup('find_cars')],
  });
  const runner = new Runner({ appName: 'trip', agent, autoCreateSession: true });
  const events: Event[] = [];
  for await (const event of runner.run({
    userId: 'u',
    sessionId: 's',
    newMessage: userContent('go'),
  }))
    events.push(event);
  return events;
}

/** The function-response event answering several calls. */
const mergedEventOf = (events: Event[]) =>
  events.find((event) => getFunctionResponses(event.content).length > 1)!;

describe('execute_tool (merged) in a real run', () => {
  let h: TelemetryHarness;
  afterEach(async () => {
    await h.close();
  });

  it('adds one merged span next to the tool spans of a response with three calls', async () => {
    h = harness({ captureContent: true });
    const events = await run(['find_flights', 'find_hotels', 'find_cars']);

    const [firstCall, secondCall] = h.spans().filter((s) => s.name === 'call_llm');
    const tools = ['find_flights', 'find_hotels', 'find_cars'].map((n) =>
      h.span(`execute_tool ${n}`),
    );
    const merged = h.span('execute_tool (merged)');
    for (const span of [...tools, merged]) expect(parentId(span)).toBe(id(firstCall!));
    expect(h.spans().filter((s) => parentId(s) === id(secondCall!))).toEqual([]);
    // It covers the calls it merges, and lists their ids in call order.
    expect(ms(merged.startTime)).toBeLessThanOrEqual(
      Math.min(...tools.map((t) => ms(t.startTime))),
    );
    expect(ms(merged.endTime)).toBeGreaterThanOrEqual(Math.max(...tools.map((t) => ms(t.endTime))));
    const callIds = tools.map((t) => t.attributes['gen_ai.tool.call.id']);
    expect(merged.attributes['adk.tool.merged_call_ids']).toEqual(callIds);
    expect(merged.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': '(merged tools)',
      'gen_ai.agent.name': 'finder',
      // The merged event's id, from core's toolCallsMerged message, where the Python ADK puts it.
      'gcp.vertex.agent.event_id': mergedEventOf(events).id,
      'gen_ai.tool.call.id': mergedEventOf(events).id,
    });
    const parts = JSON.parse(merged.attributes['gcp.vertex.agent.tool_response'] as string).content
      .parts as { functionResponse: { name: string; response: unknown } }[];
    expect(parts.map((p) => p.functionResponse)).toEqual([
      { id: callIds[0], name: 'find_flights', response: { found: 'find_flights' } },
      { id: callIds[1], name: 'find_hotels', response: { found: 'find_hotels' } },
      { id: callIds[2], name: 'find_cars', response: { found: 'find_cars' } },
    ]);
  });

  it('adds none for a response with one call', async () => {
    h = harness();
    await run(['find_flights']);
    expect(
      h
        .spans()
        .map((s) => s.name)
        .sort(),
    ).toEqual([
      'call_llm',
      'call_llm',
      'execute_tool find_flights',
      'invocation',
      'invoke_agent finder',
    ]);
  });

  it('still merges the traced calls when one call names an unknown tool', async () => {
    h = harness();
    const events = await run(['find_flights', 'find_trains', 'find_cars']);
    const merged = h.span('execute_tool (merged)');
    expect(merged.attributes['gcp.vertex.agent.event_id']).toBe(mergedEventOf(events).id);
    expect(merged.attributes['adk.tool.merged_call_ids']).toEqual([
      h.span('execute_tool find_flights').attributes['gen_ai.tool.call.id'],
      h.span('execute_tool find_cars').attributes['gen_ai.tool.call.id'],
    ]);
  });
});
