import { buildContentsIncrementally } from '../../history/index';
import { withInstructionContent } from './instruction-content';
import { renderedOwnInstruction } from './instructions-processor';
import type { RequestProcessor } from './types';

/**
 * The conversation: `buildContents` over the session's events, for this agent, its branch and its
 * `includeContents` setting (built incrementally from the previous call's contents when it can).
 * For an agent with a `staticInstruction`, its `instruction` joins the conversation as a user
 * message before the new user message (see `LlmAgentOptions.staticInstruction`).
 */
export const contentsProcessor: RequestProcessor = {
  name: 'contents',
  process(request, input) {
    const { agent, invocationContext } = input;
    const contents = buildContentsIncrementally(invocationContext.session.events, {
      agentName: agent.name,
      branch: invocationContext.branch,
      includeContents: agent.includeContents,
    });
    const next = { ...request, contents };
    if (agent.staticInstruction === undefined || agent.instruction === undefined) return next;
    const text = renderedOwnInstruction(input);
    return typeof text === 'string'
      ? withInstructionContent(next, text)
      : text.then((rendered) => withInstructionContent(next, rendered));
  },
};
