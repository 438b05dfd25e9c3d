/**
 * The semantic memory conformance suite (vitest): run it against every `MemoryVectorStore`.
 */
export { semanticMemoryConformance } from './semantic-memory-conformance';
