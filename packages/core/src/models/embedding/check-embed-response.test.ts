import { describe, expect, it } from 'vitest';

import { checkEmbedResponse } from './check-embed-response';
import { EmbeddingDimensionMismatchError } from './embedding-dimension-mismatch-error';
import { InvalidEmbeddingResponseError } from './invalid-embedding-response-error';

const caught = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('checkEmbedResponse', () => {
  it('accepts one vector per value, all of one length', () => {
    const response = {
      embeddings: [
        [0.1, 0.2],
        [0.3, 0.4],
      ],
    };
    expect(checkEmbedResponse(response, { model: 'm', count: 2, dimensions: 2 })).toBe(response);
  });

  it('refuses another number of vectors than values', () => {
    const error = caught(() =>
      checkEmbedResponse({ embeddings: [[1, 0]] }, { model: 'm', count: 2 }),
    );
    expect(InvalidEmbeddingResponseError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('asked for 2 vectors, got 1');
  });

  it('refuses vectors of unequal length, empty vectors and non-numbers', () => {
    for (const embeddings of [[[1, 0], [1]], [[]], [[1, Number.NaN]], [[1, '2']]]) {
      const error = caught(() =>
        checkEmbedResponse(
          { embeddings: embeddings as number[][] },
          {
            model: 'm',
            count: embeddings.length,
          },
        ),
      );
      expect(InvalidEmbeddingResponseError.isInstance(error), JSON.stringify(embeddings)).toBe(
        true,
      );
    }
  });

  it('reports a vector length other than the one asked for as a dimension mismatch', () => {
    const error = caught(() =>
      checkEmbedResponse({ embeddings: [[1, 0, 0]] }, { model: 'm', count: 1, dimensions: 4 }),
    );
    expect(EmbeddingDimensionMismatchError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      expected: 4,
      actual: 3,
      model: 'm',
      code: 'EMBEDDING_DIMENSION_MISMATCH',
    });
  });
});
