import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { setup } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import { getFunctionResponses } from '../content';
import {
  subscribe,
  type ModelCallStartMessage,
  type ToolCallStartMessage,
  type ToolCallsMergedMessage,
} from '../diagnostics/channels';
import { FakeModel } from '../testing/fake-model';
import { FunctionTool } from '../tools/function-tool';

const echo = new FunctionTool({
  name: 'echo',
  description: 'Echo.',
  parameters: z.object({ value: z.string() }),
  execute: ({ value }) => ({ value }),
});

describe('toolCallsMerged diagnostics message', () => {
  const stops: (() => void)[] = [];
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
  });

  function listen() {
    const merged: ToolCallsMergedMessage[] = [];
    const models: ModelCallStartMessage[] = [];
    const tools: ToolCallStartMessage[] = [];
    stops.push(subscribe('toolCallsMerged', (m) => merged.push(m)));
    stops.push(subscribe('modelCallStart', (m) => models.push(m)));
    stops.push(subscribe('toolCallStart', (m) => tools.push(m)));
    return { merged, models, tools };
  }

  it('names the merged event and its calls, under the model call that asked for them', async () => {
    const seen = listen();
    const model = new FakeModel({
      responses: [
        {
          functionCalls: [
            { name: 'echo', args: { value: 'a' }, id: 'c-a' },
            { name: 'echo', args: { value: 'b' }, id: 'c-b' },
          ],
        },
        { functionCalls: [{ name: 'echo', args: { value: 'c' }, id: 'c-c' }] },
        'done',
      ],
      strict: true,
    });
    const { run } = await setup(new LlmAgent({ name: 'agent', model, tools: [echo] }));
    const events = await run('Go.');
    model.assertAllConsumed();
    const merged = events[1]!;
    expect(getFunctionResponses(merged.content)).toHaveLength(2);
    // One message: the single call of the second response is not a merge.
    expect(seen.merged).toHaveLength(1);
    const message = seen.merged[0]!;
    expect(message).toMatchObject({
      eventId: merged.id,
      functionCallIds: ['c-a', 'c-b'],
      parentSpanId: seen.models[0]!.spanId,
      invocationId: merged.invocationId,
      agentName: 'agent',
      appName: 'test_app',
      userId: 'u1',
      sessionId: 's1',
    });
    expect(typeof message.spanId).toBe('string');
    expect(seen.tools.slice(0, 2).map((m) => m.spanId)).not.toContain(message.spanId);
    // The tool spans share the message's parent.
    expect(seen.tools.slice(0, 2).every((m) => m.parentSpanId === message.parentSpanId)).toBe(true);
  });
});
