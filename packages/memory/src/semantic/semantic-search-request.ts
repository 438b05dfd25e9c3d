import type { SearchMemoryRequest } from '@adk/core';

/**
 * How `SemanticMemoryService` searches: by meaning (`semantic`: vector similarity), by words
 * (`words`: the store's full-text search), or both with their ranks fused (`hybrid`: reciprocal
 * rank fusion).
 */
export type MemorySearchMode = 'semantic' | 'words' | 'hybrid';

/** A memory search with the semantic service's extra knobs (all optional). */
export interface SemanticSearchRequest extends SearchMemoryRequest {
  /** Default: the service's `mode` (itself `hybrid` by default). */
  mode?: MemorySearchMode | undefined;
  /** Cosine similarity a memory needs to match by meaning. Default: the service's `minSimilarity`. */
  minSimilarity?: number | undefined;
}
