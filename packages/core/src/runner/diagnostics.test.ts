import { afterEach, describe, expect, it } from 'vitest';

import { setup } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import { subscribe, type ChannelKey, type ChannelMessages } from '../diagnostics/channels';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCall, fakeText } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';
import type { Tool } from '../tools/tool';

const stops: (() => void)[] = [];
afterEach(() => {
  while (stops.length) stops.pop()!();
});

function record<K extends ChannelKey>(key: K): ChannelMessages[K][] {
  const messages: ChannelMessages[K][] = [];
  stops.push(subscribe(key, (message) => messages.push(message)));
  return messages;
}

describe('lifecycle diagnostics', () => {
  it('publishes run > agent > model > tool spans with durations and token usage', async () => {
    const runStart = record('runStart');
    const runEnd = record('runEnd');
    const agentStart = record('agentStart');
    const modelStart = record('modelCallStart');
    const modelEnd = record('modelCallEnd');
    const toolStart = record('toolCallStart');
    const toolEnd = record('toolCallEnd');
    const toolError = record('toolCallError');
    const ok = new FunctionTool({ name: 'ok', description: 'o', execute: () => 'fine' });
    const bad = new FunctionTool({
      name: 'bad',
      description: 'b',
      execute: () => {
        throw new TypeError('nope');
      },
    });
    const model = new FakeModel([
      {
        ...fakeFunctionCall('ok'),
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2 },
      },
      fakeFunctionCall('bad'),
      fakeText('done', { usageMetadata: { totalTokenCount: 30 }, finishReason: 'STOP' }),
    ]);
    const { run } = await setup(new LlmAgent({ name: 'agent', model, tools: [ok, bad] }));
    const events = await run('go');

    expect(runStart).toHaveLength(1);
    expect(runStart[0]).toMatchObject({
      parentSpanId: undefined,
      appName: 'test_app',
      userId: 'u1',
      sessionId: 's1',
      agentName: 'agent',
    });
    expect(runEnd[0]).toMatchObject({ spanId: runStart[0]!.spanId, eventCount: events.length });
    expect(agentStart[0]!.parentSpanId).toBe(runStart[0]!.spanId);
    expect(modelStart).toHaveLength(3);
    expect(modelStart.every((m) => m.parentSpanId === agentStart[0]!.spanId)).toBe(true);
    expect(modelStart[0]!.request.model).toBe('fake-model');
    // A tool call's parent is the model call that requested it.
    expect(toolStart.map((t) => [t.toolName, t.parentSpanId])).toEqual([
      ['ok', modelStart[0]!.spanId],
      ['bad', modelStart[1]!.spanId],
    ]);
    expect(toolEnd[0]).toMatchObject({ spanId: toolStart[0]!.spanId, result: { result: 'fine' } });
    expect(toolError[0]).toMatchObject({ spanId: toolStart[1]!.spanId });
    expect(modelEnd[0]!.usage).toEqual({ promptTokenCount: 10, candidatesTokenCount: 2 });
    expect(modelEnd[2]).toMatchObject({ finishReason: 'STOP', usage: { totalTokenCount: 30 } });
    for (const message of [...runEnd, ...modelEnd, ...toolEnd])
      expect(message.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('publishes model errors', async () => {
    const errors = record('modelCallError');
    const { run } = await setup(
      new LlmAgent({ name: 'agent', model: new FakeModel([new TypeError('down')]) }),
    );
    await run('go');
    expect(String(errors[0]!.error)).toContain('down');
  });

  it('closes every span when the run is aborted mid-stream', async () => {
    const runStart = record('runStart');
    const runEnd = record('runEnd');
    const agentStart = record('agentStart');
    const agentEnd = record('agentEnd');
    const modelStart = record('modelCallStart');
    const modelError = record('modelCallError');
    const controller = new AbortController();
    const { runner } = await setup(
      new LlmAgent({ name: 'agent', model: new FakeModel([['a', 'b', 'c']]) }),
    );
    for await (const _event of runner.run({
      userId: 'u1',
      sessionId: 's1',
      newMessage: { role: 'user', parts: [{ text: 'go' }] },
      runConfig: { streamingMode: 'sse' },
      signal: controller.signal,
    })) {
      controller.abort();
    }
    expect(runEnd.map((m) => m.spanId)).toEqual(runStart.map((m) => m.spanId));
    expect(agentEnd.map((m) => m.spanId)).toEqual(agentStart.map((m) => m.spanId));
    expect(modelError.map((m) => m.spanId)).toEqual(modelStart.map((m) => m.spanId));
    expect((modelError[0]!.error as Error).name).toBe('AbortError');
  });

  it('builds no message when nobody subscribes', async () => {
    let built = 0;
    // The tool-start message reads the description; nothing else in the flow does.
    const tool: Tool = {
      name: 'probe',
      get description() {
        built++;
        return 'probe';
      },
      declaration: () => ({ name: 'probe', parameters: { type: 'object', properties: {} } }),
      run: async () => 'ok',
    };
    const agent = () =>
      new LlmAgent({
        name: 'agent',
        model: new FakeModel([fakeFunctionCall('probe'), 'done']),
        tools: [tool],
      });
    await (await setup(agent())).run('go');
    expect(built).toBe(0);
    record('toolCallStart');
    await (await setup(agent())).run('go');
    expect(built).toBe(1);
  });
});
