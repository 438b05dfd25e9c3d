import { startFakeOpenAI } from '@adk/fake-provider-servers';
import {
  embeddingFixture,
  embeddingModelAcceptance,
  type EmbeddingAcceptanceTarget,
} from '@adk/fake-provider-servers/acceptance';
import { describe, expect, it } from 'vitest';

import { createOpenAI, MissingApiKeyError, ModelApiError, type OpenAIProvider } from '../src';

const target: EmbeddingAcceptanceTarget<OpenAIProvider> = {
  provider: 'OpenAI',
  startServer: startFakeOpenAI,
  create: (baseURL, sleep) =>
    createOpenAI({ apiKey: 'test-key', baseURL, circuitBreaker: false, retry: { sleep } }),
  embeddingModel: (openai, dimensions) =>
    openai.embeddingModel('text-embedding-3-small', dimensions ? { dimensions } : {}),
};

embeddingModelAcceptance(target);

describe('OpenAIEmbeddingModel', () => {
  const setup = embeddingFixture(target);

  it('posts /embeddings with floats and dimensions, and reports usage', async () => {
    const { server, provider: openai } = await setup();
    const model = openai.embeddingModel('openai/text-embedding-3-small', { dimensions: 64 });
    const values = ['The user is building a billing service', 'my payments project'];
    const { embeddings, usage } = await model.embed({ values, taskType: 'retrieval_document' });
    expect(embeddings.map((v) => v.length)).toEqual([64, 64]);
    expect(usage?.inputTokens).toBeGreaterThan(0);
    expect(server.requests[0]).toMatchObject({
      path: '/v1/embeddings',
      body: {
        model: 'text-embedding-3-small',
        input: values,
        encoding_format: 'float',
        dimensions: 64,
      },
    });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer test-key');
  });

  it('splits more than 2048 texts into several calls and sums their usage', async () => {
    const { server, provider: openai } = await setup();
    const values = Array.from({ length: 2100 }, (_, i) => `fact number ${i}`);
    const { embeddings, usage } = await openai
      .embeddingModel('text-embedding-3-small')
      .embed({ values });
    expect(embeddings).toHaveLength(2100);
    expect(server.requests.map((r) => (r.body as { input: unknown[] }).input.length)).toEqual([
      2048, 52,
    ]);
    expect(usage?.inputTokens).toBe(2100 * 3);
  });

  it('throws a non-retryable ModelApiError on a 401 at once', async () => {
    const { server, provider: openai } = await setup({ embeddingFaults: [{ status: 401 }] });
    const error = await openai
      .embeddingModel('text-embedding-3-small')
      .embed({ values: ['a'] })
      .catch((e: unknown) => e);
    expect(ModelApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 401,
      retryable: false,
      providerErrorType: 'invalid_api_key',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('needs an API key for the OpenAI API', async () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const model = createOpenAI({ baseURL: 'https://api.openai.com/v1' }).embeddingModel(
        'text-embedding-3-small',
      );
      const error = await model.embed({ values: ['a'] }).catch((e: unknown) => e);
      expect(MissingApiKeyError.isInstance(error)).toBe(true);
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });
});
