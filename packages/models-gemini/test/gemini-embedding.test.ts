import {
  EmbeddingDimensionMismatchError,
  InvalidArgumentError,
  InvalidEmbeddingResponseError,
} from '@adk/core';
import {
  startFakeGemini,
  type FakeProviderServer,
  type FakeServerOptions,
} from '@adk/fake-provider-servers';
import { afterEach, describe, expect, it } from 'vitest';

import { createGemini, ModelApiError, type GeminiSettings } from '../src';

let server: FakeProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(options: FakeServerOptions = {}, settings: GeminiSettings = {}) {
  server = await startFakeGemini(options);
  const delays: number[] = [];
  const gemini = createGemini({
    apiKey: 'test-key',
    baseURL: server.baseURL,
    circuitBreaker: false,
    ...settings,
    retry: { sleep: async (ms) => void delays.push(ms) },
  });
  return { server, gemini, delays };
}

const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

describe('GeminiEmbeddingModel', () => {
  it('embeds one text with embedContent, sending task type and dimensions', async () => {
    const { server, gemini } = await setup();
    const model = gemini.embeddingModel('gemini-embedding-001', { dimensions: 96 });
    const { embeddings, usage } = await model.embed({
      values: ['my payments project'],
      taskType: 'retrieval_query',
    });
    expect(embeddings).toHaveLength(1);
    expect(embeddings[0]).toHaveLength(96);
    expect(usage).toBeUndefined();
    expect(server.requests[0]).toMatchObject({
      path: '/v1beta/models/gemini-embedding-001:embedContent',
      body: {
        content: { parts: [{ text: 'my payments project' }] },
        taskType: 'RETRIEVAL_QUERY',
        outputDimensionality: 96,
      },
    });
    expect(server.requests[0]!.headers['x-goog-api-key']).toBe('test-key');
  });

  it('splits 250 texts into batchEmbedContents calls of 100 and keeps their order', async () => {
    const { server, gemini } = await setup();
    const model = gemini.embeddingModel('models/gemini-embedding-001');
    const values = Array.from({ length: 250 }, (_, i) =>
      i === 7 ? 'building a billing service' : i === 242 ? 'my payments project' : `note ${i}`,
    );
    const { embeddings } = await model.embed({ values, taskType: 'retrieval_document' });
    expect(embeddings).toHaveLength(250);
    expect(server.requests.map((r) => (r.body as { requests: unknown[] }).requests.length)).toEqual(
      [100, 100, 50],
    );
    expect(server.requests[0]!.path).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    // The vectors belong to their texts: the two related ones are close, across batches.
    expect(cosine(embeddings[7]!, embeddings[242]!)).toBeGreaterThan(0.6);
    expect(cosine(embeddings[7]!, embeddings[8]!)).toBeLessThan(0.3);
  });

  it('retries a 429 and a 503, then answers', async () => {
    const { server, gemini, delays } = await setup({
      embeddingFaults: [{ status: 429, retryAfter: '1' }, { status: 503 }],
    });
    const { embeddings } = await gemini
      .embeddingModel('gemini-embedding-001')
      .embed({ values: ['a', 'b'] });
    expect(embeddings).toHaveLength(2);
    expect(server.requests).toHaveLength(3);
    expect(delays[0]).toBe(1000);
  });

  it('throws a non-retryable ModelApiError on a 400 at once', async () => {
    const { server, gemini } = await setup({ embeddingFaults: [{ status: 400, message: 'no' }] });
    const error = await gemini
      .embeddingModel('gemini-embedding-001')
      .embed({ values: ['a'] })
      .catch((e: unknown) => e);
    expect(ModelApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 400,
      retryable: false,
      providerErrorType: 'INVALID_ARGUMENT',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('reports vectors of another length than asked as EmbeddingDimensionMismatchError', async () => {
    const { gemini } = await setup({ embed: () => Array.from({ length: 8 }, () => 0.5) });
    const error = await gemini
      .embeddingModel('gemini-embedding-001', { dimensions: 16 })
      .embed({ values: ['a', 'b'] })
      .catch((e: unknown) => e);
    expect(EmbeddingDimensionMismatchError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ expected: 16, actual: 8, model: 'gemini-embedding-001' });
  });

  it('reports an answer with vectors of unequal length as InvalidEmbeddingResponseError', async () => {
    let n = 0;
    const { gemini } = await setup({ embed: () => Array.from({ length: 4 + n++ }, () => 0.5) });
    const error = await gemini
      .embeddingModel('gemini-embedding-001')
      .embed({ values: ['a', 'b'] })
      .catch((e: unknown) => e);
    expect(InvalidEmbeddingResponseError.isInstance(error)).toBe(true);
  });

  it('refuses Vertex AI with a typed error before any call', async () => {
    const { server, gemini } = await setup({}, { vertexai: { project: 'p', accessToken: 't' } });
    const error = await gemini
      .embeddingModel('gemini-embedding-001')
      .embed({ values: ['a'] })
      .catch((e: unknown) => e);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });
});
