import { modelProviderConformance } from '@adk/core/testing/vitest';
import { describeOpenAIRequest, startFakeOpenAI, toFakeReply } from '@adk/fake-provider-servers';

import { createOpenAI } from '../src';

modelProviderConformance('openai', {
  async createBackend(script, { retries }) {
    const server = await startFakeOpenAI({ script: script.map(toFakeReply) });
    const openai = createOpenAI({
      apiKey: 'test-key',
      baseURL: server.baseURL,
      maxRetries: retries,
      retry: { initialDelayMs: 1, maxDelayMs: 5 },
    });
    return {
      model: openai('openai/gpt-4o'),
      requests: () => server.requests.map(describeOpenAIRequest),
      close: () => server.close(),
    };
  },
});
