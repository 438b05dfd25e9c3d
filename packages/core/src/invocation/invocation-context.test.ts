import { describe, expect, it } from 'vitest';

import { makeContext } from '../../test/helpers';
import { MaxLlmCallsExceededError } from '../errors/max-llm-calls-exceeded-error';
import { LlmAgent } from '../agents/llm-agent';

describe('InvocationContext', () => {
  it('shares the call counter, endInvocation and plugin state with child contexts', async () => {
    const child = new LlmAgent({ name: 'child' });
    const root = new LlmAgent({ name: 'root', subAgents: [child] });
    const ctx = await makeContext(root, { runConfig: { maxLlmCalls: 2 } });
    const sub = ctx.createChild({ agent: child, branch: 'root.child' });
    expect(sub.agent).toBe(child);
    expect(sub.branch).toBe('root.child');
    expect(sub.session).toBe(ctx.session);
    expect(sub.parentSpanId).toBe(ctx.spanId);
    expect(sub.spanId).not.toBe(ctx.spanId);
    expect(sub.createChild({ agent: child }).branch).toBe('root.child');
    ctx.incrementLlmCallCount();
    sub.incrementLlmCallCount();
    expect(ctx.llmCallCount).toBe(2);
    expect(() => sub.incrementLlmCallCount()).toThrow(MaxLlmCallsExceededError);
    sub.endInvocation = true;
    expect(ctx.endInvocation).toBe(true);
    sub.pluginState('p').set('k', 1);
    expect(ctx.pluginState('p').get('k')).toBe(1);
    expect(ctx.pluginState('other').size).toBe(0);
  });

  it('treats maxLlmCalls 0 as unlimited', async () => {
    const ctx = await makeContext(new LlmAgent({ name: 'a' }), { runConfig: { maxLlmCalls: 0 } });
    for (let i = 0; i < 1000; i++) ctx.incrementLlmCallCount();
    expect(ctx.llmCallCount).toBe(1000);
  });
});
