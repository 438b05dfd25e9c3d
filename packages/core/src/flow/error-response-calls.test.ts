import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { setup } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import { getFunctionCalls } from '../content';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCalls } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';

describe('a model response that carries an error', () => {
  it('is stored with its function calls, none of which runs, and ends the turn', async () => {
    let runs = 0;
    const tool = new FunctionTool({
      name: 'delete_everything',
      description: 'Dangerous.',
      parameters: z.object({}),
      execute: () => {
        runs++;
        return { ok: true };
      },
    });
    const model = new FakeModel({
      responses: [
        {
          ...fakeFunctionCalls({ name: 'delete_everything', args: {} }),
          errorCode: 'MALFORMED_FUNCTION_CALL',
          errorMessage: 'The call was malformed.',
        },
      ],
      strict: true,
    });
    const { run, session } = await setup(new LlmAgent({ name: 'agent', model, tools: [tool] }));
    const events = await run('Go.');
    model.assertAllConsumed();
    expect(runs).toBe(0);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ errorCode: 'MALFORMED_FUNCTION_CALL' });
    expect(getFunctionCalls(events[0]!.content).map((call) => call.name)).toEqual([
      'delete_everything',
    ]);
    const stored = (await session()).events;
    expect(stored.at(-1)).toMatchObject({
      id: events[0]!.id,
      errorCode: 'MALFORMED_FUNCTION_CALL',
    });
  });
});
