import { modelProviderConformance } from '@adk/core/testing/vitest';
import { MockLanguageModelV3 } from 'ai/test';

import type { AiSdkLanguageModel } from '../src';
import { scriptedSpecBackend } from './scripted-spec-model';

// The AI SDK's own mock model (ai 6, specification v3), scripted per test.
modelProviderConformance('ai-sdk MockLanguageModelV3', {
  createBackend: (script, { retries }) =>
    scriptedSpecBackend(
      script,
      retries,
      (calls) =>
        new MockLanguageModelV3({
          provider: 'mock',
          modelId: 'mock-model',
          doGenerate: calls.doGenerate as never,
          doStream: calls.doStream as never,
        }) as unknown as AiSdkLanguageModel,
    ),
});

// Specification v4 (ai 7, which needs Node 22): the same shapes, declared as v4.
modelProviderConformance('ai-sdk specification v4', {
  createBackend: (script, { retries }) =>
    scriptedSpecBackend(script, retries, (calls) => ({
      specificationVersion: 'v4',
      provider: 'scripted-v4',
      modelId: 'scripted-v4-model',
      supportedUrls: {},
      doGenerate: calls.doGenerate as never,
      doStream: calls.doStream as never,
    })),
});
