import type { RequestProcessor } from './types';

/**
 * Generation settings: the agent's `generateContentConfig`, overridden key by key by the run's
 * `RunConfig.generateContentConfig` (a shallow merge: the run's value of a key replaces the agent's).
 */
export const configProcessor: RequestProcessor = {
  name: 'config',
  process(request, { agent, invocationContext }) {
    return {
      ...request,
      config: {
        ...request.config,
        ...agent.generateContentConfig,
        ...invocationContext.runConfig.generateContentConfig,
      },
    };
  },
};
