import { buildContentsIncrementally } from '../../history/index';
import type { RequestProcessor } from './types';

/**
 * The conversation: `buildContents` over the session's events, for this agent, its branch and its
 * `includeContents` setting (built incrementally from the previous call's contents when it can).
 */
export const contentsProcessor: RequestProcessor = {
  name: 'contents',
  process(request, { agent, invocationContext }) {
    const contents = buildContentsIncrementally(invocationContext.session.events, {
      agentName: agent.name,
      branch: invocationContext.branch,
      includeContents: agent.includeContents,
    });
    return { ...request, contents };
  },
};
