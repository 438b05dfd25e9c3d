export { InMemoryVectorStore } from './in-memory-vector-store';
export type {
  DeleteMemoriesQuery,
  ListMemoriesQuery,
  MemoryVectorStore,
  VectorSearchQuery,
  WordSearchQuery,
} from './memory-vector-store';
export { reciprocalRankFusion, RRF_K } from './rank-fusion';
export {
  SemanticMemoryService,
  type SemanticMemoryServiceOptions,
} from './semantic-memory-service';
export type { MemorySearchMode, SemanticSearchRequest } from './semantic-search-request';
export type {
  MemoryDraft,
  MemoryKind,
  MemoryScope,
  ScoredMemory,
  StoredMemory,
} from './stored-memory';
export * from './sql';
