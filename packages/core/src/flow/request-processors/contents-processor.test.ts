import { describe, expect, it } from 'vitest';

import { empty, frozen } from '../../../test/processor-helpers';
import { makeContext } from '../../../test/helpers';
import { LlmAgent } from '../../agents/llm-agent';
import { modelContent, userContent } from '../../content';
import { InvocationReadonlyContext } from '../../context/invocation-contexts';
import { createEvent } from '../../events';
import { CONTINUE_TURN_TEXT } from '../../history/turn-order';
import { contentsProcessor } from './contents-processor';

describe('contentsProcessor', () => {
  it("builds the contents from the session's events", async () => {
    const agent = new LlmAgent({ name: 'a' });
    const ctx = await makeContext(agent, {
      events: [
        createEvent({ invocationId: 'e0', author: 'user', content: userContent('hello') }),
        createEvent({ invocationId: 'e0', author: 'a', content: modelContent('hi!') }),
      ],
    });
    const request = await contentsProcessor.process(frozen(empty()), {
      agent,
      invocationContext: ctx,
      context: new InvocationReadonlyContext(ctx),
      tools: [],
    });
    // The history ends with the model's turn: a user turn asks it to go on (never a prefill).
    expect(request.contents).toEqual([
      userContent('hello'),
      modelContent('hi!'),
      userContent(CONTINUE_TURN_TEXT),
    ]);
  });
});
