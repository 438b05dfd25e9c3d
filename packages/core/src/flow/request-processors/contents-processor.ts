import { buildContents } from '../contents';
import type { RequestProcessor } from './types';

/**
 * The conversation: `buildContents` over the session's events, for this agent, its branch and its
 * `includeContents` setting.
 */
export const contentsProcessor: RequestProcessor = {
  name: 'contents',
  process(request, { agent, invocationContext }) {
    const contents = buildContents(invocationContext.session.events, {
      agentName: agent.name,
      branch: invocationContext.branch,
      includeContents: agent.includeContents,
    });
    return { ...request, contents };
  },
};
