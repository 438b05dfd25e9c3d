import { modelProviderConformance } from '@adk/core/testing/vitest';
import { describeOpenAIRequest, startFakeOpenAI, toFakeReply } from '@adk/fake-provider-servers';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createOpenAICompatible as createOpenAICompatibleV1 } from 'openai-compatible-v1';

import { aiSdkModel, requestFetch, type AiSdkLanguageModel } from '../src';

type Factory = (settings: {
  name: string;
  baseURL: string;
  apiKey: string;
  includeUsage: boolean;
}) => (modelId: string) => unknown;

/** The suite against an `@ai-sdk/openai-compatible` provider pointed at the fake OpenAI server. */
function againstFakeOpenAI(title: string, create: Factory): void {
  modelProviderConformance(title, {
    async createBackend(script, { retries }) {
      const server = await startFakeOpenAI({ script: script.map(toFakeReply) });
      const provider = create({
        name: 'fake-openai',
        baseURL: server.baseURL,
        apiKey: 'test-key',
        includeUsage: true,
      });
      return {
        model: aiSdkModel(provider('gpt-4o') as AiSdkLanguageModel, {
          maxRetries: retries,
          retry: { initialDelayMs: 1, maxDelayMs: 5 },
        }),
        requests: () => server.requests.map(describeOpenAIRequest),
        close: () => server.close(),
      };
    },
  });
}

// Specification v3 (ai 6) and v2 (ai 5: flat usage, string finish reasons).
againstFakeOpenAI('ai-sdk v3 (@ai-sdk/openai-compatible 2)', createOpenAICompatible);
againstFakeOpenAI('ai-sdk v2 (@ai-sdk/openai-compatible 1)', createOpenAICompatibleV1);
// The same provider sending its calls over undici's `request` (the `fetch` this package offers).
againstFakeOpenAI('ai-sdk v3 (@ai-sdk/openai-compatible 2) with requestFetch', (settings) =>
  createOpenAICompatible({ ...settings, fetch: requestFetch() }),
);
