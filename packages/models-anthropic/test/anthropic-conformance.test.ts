import { modelProviderConformance } from '@adk/core/testing/vitest';
import {
  describeAnthropicRequest,
  startFakeAnthropic,
  toFakeReply,
} from '@adk/fake-provider-servers';

import { createAnthropic } from '../src';

modelProviderConformance('anthropic', {
  async createBackend(script, { retries }) {
    const server = await startFakeAnthropic({ script: script.map(toFakeReply) });
    const anthropic = createAnthropic({
      apiKey: 'test-key',
      baseURL: server.baseURL,
      maxRetries: retries,
      retry: { initialDelayMs: 1, maxDelayMs: 5 },
    });
    return {
      model: anthropic('claude-sonnet-4-5'),
      requests: () => server.requests.map(describeAnthropicRequest),
      close: () => server.close(),
    };
  },
});
