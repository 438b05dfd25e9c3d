import { EmbeddingDimensionMismatchError } from '@adk/core';
import {
  startFakeOpenAI,
  type FakeProviderServer,
  type FakeServerOptions,
} from '@adk/fake-provider-servers';
import { afterEach, describe, expect, it } from 'vitest';

import { createOpenAI, MissingApiKeyError, ModelApiError, type OpenAISettings } from '../src';

let server: FakeProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(options: FakeServerOptions = {}, settings: OpenAISettings = {}) {
  server = await startFakeOpenAI(options);
  const delays: number[] = [];
  const openai = createOpenAI({
    apiKey: 'test-key',
    baseURL: server.baseURL,
    circuitBreaker: false,
    ...settings,
    retry: { sleep: async (ms) => void delays.push(ms) },
  });
  return { server, openai, delays };
}

const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

describe('OpenAIEmbeddingModel', () => {
  it('posts /embeddings with floats and dimensions, and reports usage', async () => {
    const { server, openai } = await setup();
    const model = openai.embeddingModel('openai/text-embedding-3-small', { dimensions: 64 });
    const { embeddings, usage } = await model.embed({
      values: ['The user is building a billing service', 'my payments project', 'rainy weekend'],
      taskType: 'retrieval_document',
    });
    expect(embeddings.map((v) => v.length)).toEqual([64, 64, 64]);
    expect(cosine(embeddings[0]!, embeddings[1]!)).toBeGreaterThan(0.6);
    expect(cosine(embeddings[0]!, embeddings[2]!)).toBeLessThan(0.2);
    expect(usage?.inputTokens).toBeGreaterThan(0);
    expect(server.requests[0]).toMatchObject({
      path: '/v1/embeddings',
      body: {
        model: 'text-embedding-3-small',
        input: ['The user is building a billing service', 'my payments project', 'rainy weekend'],
        encoding_format: 'float',
        dimensions: 64,
      },
    });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer test-key');
  });

  it('splits more than 2048 texts into several calls and sums their usage', async () => {
    const { server, openai } = await setup();
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

  it('retries a 429 then answers; a 401 is a ModelApiError at once', async () => {
    const first = await setup({ embeddingFaults: [{ status: 429 }] });
    expect(
      (await first.openai.embeddingModel('text-embedding-3-small').embed({ values: ['a'] }))
        .embeddings,
    ).toHaveLength(1);
    expect(first.server.requests).toHaveLength(2);
    await first.server.close();
    const second = await setup({ embeddingFaults: [{ status: 401 }] });
    const error = await second.openai
      .embeddingModel('text-embedding-3-small')
      .embed({ values: ['a'] })
      .catch((e: unknown) => e);
    expect(ModelApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 401,
      retryable: false,
      providerErrorType: 'invalid_api_key',
    });
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

  it('reports vectors of another length than asked as EmbeddingDimensionMismatchError', async () => {
    const { openai } = await setup({ embed: () => [1, 0, 0] });
    const error = await openai
      .embeddingModel('text-embedding-3-small', { dimensions: 64 })
      .embed({ values: ['a'] })
      .catch((e: unknown) => e);
    expect(EmbeddingDimensionMismatchError.isInstance(error)).toBe(true);
  });
});
