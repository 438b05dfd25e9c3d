import type { MemoryDraft } from '../semantic/stored-memory';
import { conceptVector } from './concept-vector';

/**
 * A fact of `text` for a test to store, embedded by its concept vector of `dimensions` (embedding
 * model `concept-<dimensions>`). Not exported from `@adk/memory/testing`: the conformance suites
 * and this package's tests use it.
 */
export function conceptDraft(
  appName: string,
  userId: string,
  text: string,
  timestamp: number,
  dimensions = 256,
): MemoryDraft {
  return {
    appName,
    userId,
    kind: 'fact',
    text,
    content: { role: 'user', parts: [{ text }] },
    timestamp,
    embedding: conceptVector(text, dimensions),
    embeddingModel: `concept-${dimensions}`,
  };
}
