import { InvalidArgumentError } from '@adk/core';
import { startFakeOpenAI } from '@adk/fake-provider-servers';
import {
  embeddingFixture,
  embeddingModelAcceptance,
  type EmbeddingAcceptanceTarget,
} from '@adk/fake-provider-servers/acceptance';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { MockEmbeddingModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';

import { aiSdkEmbeddingModel, type AiSdkEmbeddingModelSpec } from '../src';

interface Compat {
  provider: ReturnType<typeof createOpenAICompatible>;
  sleep: (ms: number) => Promise<void>;
}

/** The real `@ai-sdk/openai-compatible` provider, pointed at the fake OpenAI server. */
const target: EmbeddingAcceptanceTarget<Compat> = {
  provider: 'OpenAI (through @ai-sdk/openai-compatible)',
  startServer: startFakeOpenAI,
  create: (baseURL, sleep) => ({
    provider: createOpenAICompatible({ name: 'fake-openai', baseURL, apiKey: 'test-key' }),
    sleep,
  }),
  embeddingModel: ({ provider, sleep }, dimensions) =>
    aiSdkEmbeddingModel(
      provider.textEmbeddingModel('text-embedding-3-small') as AiSdkEmbeddingModelSpec,
      { ...(dimensions ? { dimensions } : {}), retry: { sleep } },
    ),
};

embeddingModelAcceptance(target);

describe('aiSdkEmbeddingModel', () => {
  const setup = embeddingFixture(target);

  it('sends dimensions as the OpenAI-compatible body field', async () => {
    const { server, provider } = await setup();
    const model = target.embeddingModel(provider, 96);
    const { embeddings } = await model.embed({ values: ['billing service', 'payments'] });
    expect(embeddings.map((vector) => vector.length)).toEqual([96, 96]);
    expect(server.requests[0]!.body).toMatchObject({
      model: 'text-embedding-3-small',
      input: ['billing service', 'payments'],
      dimensions: 96,
    });
  });

  it('splits a request over maxEmbeddingsPerCall, in order, and sums the usage', async () => {
    const mock = new MockEmbeddingModelV3({
      provider: 'mock.embedding',
      modelId: 'mock-embed',
      maxEmbeddingsPerCall: 2,
      doEmbed: async ({ values }) => ({
        embeddings: values.map((value) => [value.length, 1]),
        usage: { tokens: values.length * 3 },
        warnings: [],
      }),
    });
    const model = aiSdkEmbeddingModel(mock as AiSdkEmbeddingModelSpec);
    const result = await model.embed({ values: ['a', 'bb', 'ccc', 'dddd', 'eeeee'] });
    expect(mock.doEmbedCalls.map((call) => call.values)).toEqual([
      ['a', 'bb'],
      ['ccc', 'dddd'],
      ['eeeee'],
    ]);
    expect(result.embeddings.map((vector) => vector[0])).toEqual([1, 2, 3, 4, 5]);
    expect(result.usage).toEqual({ inputTokens: 15 });
    expect(model.name).toBe('mock-embed');
  });

  it('passes the task type and length as Google provider options', async () => {
    const mock = new MockEmbeddingModelV3({
      provider: 'google.generative-ai',
      modelId: 'gemini-embedding-001',
      doEmbed: async ({ values }) => ({
        embeddings: values.map(() => [0.1, 0.2, 0.3]),
        warnings: [],
      }),
    });
    const model = aiSdkEmbeddingModel(mock as AiSdkEmbeddingModelSpec, { dimensions: 3 });
    await model.embed({ values: ['x'], taskType: 'retrieval_query' });
    expect(mock.doEmbedCalls[0]!.providerOptions).toEqual({
      google: { taskType: 'RETRIEVAL_QUERY', outputDimensionality: 3 },
    });
  });

  it('refuses what is not an embedding model of a known specification', () => {
    expect(() =>
      aiSdkEmbeddingModel({ specificationVersion: 'v1' } as unknown as AiSdkEmbeddingModelSpec),
    ).toThrow(InvalidArgumentError);
    expect(() =>
      aiSdkEmbeddingModel(new MockEmbeddingModelV3() as AiSdkEmbeddingModelSpec, { dimensions: 0 }),
    ).toThrow(InvalidArgumentError);
  });
});
