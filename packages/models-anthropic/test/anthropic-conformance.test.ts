import { modelProviderConformance } from '@adk/core/testing/vitest';
import {
  describeAnthropicRequest,
  startFakeAnthropic,
  toFakeReply,
} from '@adk/fake-provider-servers';

import { createAnthropic } from '../src';

modelProviderConformance('anthropic', {
  async createBackend(script) {
    const server = await startFakeAnthropic({ script: script.map(toFakeReply) });
    const anthropic = createAnthropic({
      apiKey: 'test-key',
      baseURL: server.baseURL,
      maxRetries: 0,
    });
    return {
      model: anthropic('claude-sonnet-4-5'),
      requests: () => server.requests.map(describeAnthropicRequest),
      close: () => server.close(),
    };
  },
});
