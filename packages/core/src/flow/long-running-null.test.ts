import { describe, expect, it } from 'vitest';

import { setup } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCalls } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';

describe('a long-running tool that returns null', () => {
  it('has no result yet, as one that returns undefined (Python None): the invocation waits', async () => {
    const approval = new FunctionTool({
      name: 'ask_approval',
      description: 'Ask a manager.',
      isLongRunning: true,
      execute: () => null,
    });
    const model = new FakeModel({
      responses: [fakeFunctionCalls({ name: 'ask_approval', id: 'job-1' })],
      strict: true,
    });
    const { run } = await setup(new LlmAgent({ name: 'agent', model, tools: [approval] }));
    const events = await run('please approve');
    expect(events).toHaveLength(1);
    expect(events[0]?.longRunningToolIds).toEqual(['job-1']);
    expect(model.callCount).toBe(1);
  });
});
