import { modelProviderConformance } from '@adk/core/testing/vitest';
import { describeGeminiRequest, startFakeGemini, toFakeReply } from '@adk/fake-provider-servers';

import { createGemini } from '../src';

modelProviderConformance('gemini', {
  async createBackend(script, { retries }) {
    const server = await startFakeGemini({ script: script.map(toFakeReply) });
    const gemini = createGemini({
      apiKey: 'test-key',
      baseURL: server.baseURL,
      maxRetries: retries,
      retry: { initialDelayMs: 1, maxDelayMs: 5 },
    });
    return {
      model: gemini('gemini-2.5-flash'),
      requests: () => server.requests.map(describeGeminiRequest),
      close: () => server.close(),
    };
  },
});

// The same contract with function-call arguments streamed in pieces (Gemini 3).
modelProviderConformance('gemini (streamFunctionCallArguments)', {
  async createBackend(script, { retries }) {
    const server = await startFakeGemini({ script: script.map(toFakeReply) });
    const gemini = createGemini({
      apiKey: 'test-key',
      baseURL: server.baseURL,
      maxRetries: retries,
      retry: { initialDelayMs: 1, maxDelayMs: 5 },
      streamFunctionCallArguments: true,
    });
    return {
      model: gemini('gemini-3-pro-preview'),
      requests: () => server.requests.map(describeGeminiRequest),
      close: () => server.close(),
    };
  },
});
