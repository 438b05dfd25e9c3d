import { modelProviderConformance } from '@adk/core/testing/vitest';
import { describeOpenAIRequest, startFakeOpenAI, toFakeReply } from '@adk/fake-provider-servers';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createOpenAICompatible as createOpenAICompatibleV1 } from 'openai-compatible-v1';

import { aiSdkModel } from '../src';

// @ai-sdk/openai-compatible 2 (specification v3, ai 6) against the fake OpenAI server.
modelProviderConformance('ai-sdk v3 (@ai-sdk/openai-compatible 2)', {
  async createBackend(script, { retries }) {
    const server = await startFakeOpenAI({ script: script.map(toFakeReply) });
    const provider = createOpenAICompatible({
      name: 'fake-openai',
      baseURL: server.baseURL,
      apiKey: 'test-key',
      includeUsage: true,
    });
    return {
      model: aiSdkModel(provider('gpt-4o'), {
        maxRetries: retries,
        retry: { initialDelayMs: 1, maxDelayMs: 5 },
      }),
      requests: () => server.requests.map(describeOpenAIRequest),
      close: () => server.close(),
    };
  },
});

// @ai-sdk/openai-compatible 1 (specification v2, ai 5): flat usage, string finish reasons.
modelProviderConformance('ai-sdk v2 (@ai-sdk/openai-compatible 1)', {
  async createBackend(script, { retries }) {
    const server = await startFakeOpenAI({ script: script.map(toFakeReply) });
    const provider = createOpenAICompatibleV1({
      name: 'fake-openai',
      baseURL: server.baseURL,
      apiKey: 'test-key',
      includeUsage: true,
    });
    return {
      model: aiSdkModel(provider('gpt-4o'), {
        maxRetries: retries,
        retry: { initialDelayMs: 1, maxDelayMs: 5 },
      }),
      requests: () => server.requests.map(describeOpenAIRequest),
      close: () => server.close(),
    };
  },
});
