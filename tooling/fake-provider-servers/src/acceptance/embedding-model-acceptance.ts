import {
  EmbeddingDimensionMismatchError,
  InvalidEmbeddingResponseError,
  type EmbeddingModel,
} from '@adk/core';
import { afterEach, describe, expect, it } from 'vitest';

import type { FakeProviderServer, FakeServerOptions } from '../types';

/** How a provider package's embedding models meet their fake server. */
export interface EmbeddingAcceptanceTarget<Provider> {
  /** The provider, as in `startFakeGemini` / `startFakeOpenAI`. */
  provider: string;
  startServer(options: FakeServerOptions): Promise<FakeProviderServer>;
  /** The provider at the server's `baseURL`, its retry waits going to `sleep` (never slept). */
  create(baseURL: string, sleep: (ms: number) => Promise<void>): Provider;
  /** One embedding model of the provider, of `dimensions` when given. */
  embeddingModel(provider: Provider, dimensions?: number): EmbeddingModel;
}

/** Dot product (the fake servers' vectors are unit length: the cosine similarity). */
export const cosine = (a: readonly number[], b: readonly number[]): number =>
  a.reduce((sum, x, i) => sum + x * b[i]!, 0);

/**
 * The fake server and provider of one embedding test: `setup(options)` starts them (the server is
 * closed after the test) and records the retry waits in `delays`.
 */
export function embeddingFixture<Provider>(target: EmbeddingAcceptanceTarget<Provider>) {
  let server: FakeProviderServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async (options: FakeServerOptions = {}) => {
    await server?.close();
    server = await target.startServer(options);
    const delays: number[] = [];
    const provider = target.create(server.baseURL, async (ms) => void delays.push(ms));
    return { server, provider, delays };
  };
}

/**
 * Registers (with vitest) what every provider's embedding model must do against its fake server:
 * vectors of the asked length in which related texts are close, a retried 429, and typed errors
 * for vectors of another length than asked or of unequal lengths. The provider's wire details
 * (paths, batching, usage, its own errors) stay in its package's tests.
 */
export function embeddingModelAcceptance<Provider>(
  target: EmbeddingAcceptanceTarget<Provider>,
): void {
  describe(`embedding model acceptance against the fake ${target.provider} server`, () => {
    const setup = embeddingFixture(target);

    it('answers vectors of the asked length, related texts close and others apart', async () => {
      const { provider } = await setup();
      const { embeddings } = await target.embeddingModel(provider, 64).embed({
        values: ['The user is building a billing service', 'my payments project', 'rainy weekend'],
        taskType: 'retrieval_document',
      });
      expect(embeddings.map((v) => v.length)).toEqual([64, 64, 64]);
      expect(cosine(embeddings[0]!, embeddings[1]!)).toBeGreaterThan(0.6);
      expect(cosine(embeddings[0]!, embeddings[2]!)).toBeLessThan(0.3);
    });

    it('retries a 429, then answers', async () => {
      const { server, provider, delays } = await setup({ embeddingFaults: [{ status: 429 }] });
      const { embeddings } = await target.embeddingModel(provider).embed({ values: ['a', 'b'] });
      expect(embeddings).toHaveLength(2);
      expect(server.requests).toHaveLength(2);
      expect(delays).toHaveLength(1);
    });

    it('reports vectors of another length than asked as EmbeddingDimensionMismatchError', async () => {
      const { provider } = await setup({ embed: () => Array.from({ length: 8 }, () => 0.5) });
      const model = target.embeddingModel(provider, 16);
      const error = await model.embed({ values: ['a', 'b'] }).catch((e: unknown) => e);
      expect(EmbeddingDimensionMismatchError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ expected: 16, actual: 8, model: model.name });
    });

    it('reports an answer with vectors of unequal length as InvalidEmbeddingResponseError', async () => {
      let n = 0;
      const { provider } = await setup({ embed: () => Array.from({ length: 4 + n++ }, () => 0.5) });
      const error = await target
        .embeddingModel(provider)
        .embed({ values: ['a', 'b'] })
        .catch((e: unknown) => e);
      expect(InvalidEmbeddingResponseError.isInstance(error)).toBe(true);
    });
  });
}
