/**
 * Test doubles for memory, loadable without a test runner: a deterministic embedding model whose
 * vectors put related phrases close. The conformance suites are on `@adk/memory/testing/vitest`.
 */
export { ConceptEmbeddingModel } from './concept-embedding-model';
export { conceptVector } from './concept-vector';
export { CONCEPT_GROUPS, STOP_WORDS } from './concept-vocabulary';
