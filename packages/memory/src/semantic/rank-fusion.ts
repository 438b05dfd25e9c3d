/** The usual constant of reciprocal rank fusion: it damps the weight of the very first ranks. */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion: each list gives an item `1 / (k + rank)` (rank from 1), summed over
 * the lists it appears in; best first. Scores of different kinds (cosine similarity, bm25) need
 * no calibration, only their order counts.
 */
export function reciprocalRankFusion<T>(
  lists: readonly (readonly T[])[],
  key: (item: T) => string,
  k = RRF_K,
): { item: T; score: number }[] {
  const fused = new Map<string, { item: T; score: number }>();
  for (const list of lists) {
    list.forEach((item, index) => {
      const id = key(item);
      const entry = fused.get(id) ?? { item, score: 0 };
      entry.score += 1 / (k + index + 1);
      fused.set(id, entry);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score);
}
