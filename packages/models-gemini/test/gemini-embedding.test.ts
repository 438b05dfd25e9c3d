import { InvalidArgumentError } from '@adk/core';
import { startFakeGemini } from '@adk/fake-provider-servers';
import {
  cosine,
  embeddingFixture,
  embeddingModelAcceptance,
  type EmbeddingAcceptanceTarget,
} from '@adk/fake-provider-servers/acceptance';
import { describe, expect, it } from 'vitest';

import { createGemini, ModelApiError, type GeminiProvider, type GeminiSettings } from '../src';

const target = (settings: GeminiSettings = {}): EmbeddingAcceptanceTarget<GeminiProvider> => ({
  provider: 'Gemini',
  startServer: startFakeGemini,
  create: (baseURL, sleep) =>
    createGemini({
      apiKey: 'test-key',
      baseURL,
      circuitBreaker: false,
      ...settings,
      retry: { sleep },
    }),
  embeddingModel: (gemini, dimensions) =>
    gemini.embeddingModel('gemini-embedding-001', dimensions ? { dimensions } : {}),
});

embeddingModelAcceptance(target());

describe('GeminiEmbeddingModel', () => {
  const setup = embeddingFixture(target());

  it('embeds one text with embedContent, sending task type and dimensions', async () => {
    const { server, provider: gemini } = await setup();
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
    const { server, provider: gemini } = await setup();
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

  it('waits as long as Retry-After says before retrying a 429, and retries a 503', async () => {
    const {
      server,
      provider: gemini,
      delays,
    } = await setup({
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
    const { server, provider: gemini } = await setup({
      embeddingFaults: [{ status: 400, message: 'no' }],
    });
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
});

describe('GeminiEmbeddingModel on Vertex AI', () => {
  const setup = embeddingFixture(target({ vertexai: { project: 'p', accessToken: 't' } }));

  it('refuses Vertex AI with a typed error before any call', async () => {
    const { server, provider: gemini } = await setup();
    const error = await gemini
      .embeddingModel('gemini-embedding-001')
      .embed({ values: ['a'] })
      .catch((e: unknown) => e);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });
});
