import type { Content } from '@adk/core';

/** Where a memory came from: an event of a session, or a fact extracted from sessions. */
export type MemoryKind = 'event' | 'fact';

/** A memory about to be stored: its text, its content and (usually) its embedding. */
export interface MemoryDraft {
  appName: string;
  userId: string;
  kind: MemoryKind;
  /** The session it came from (events: always; facts: the session that last changed it). */
  sessionId?: string | undefined;
  /** The event it came from (events only). */
  eventId?: string | undefined;
  /** The searchable text (and what is embedded). */
  text: string;
  /** What a search returns as the memory's content. */
  content: Content;
  author?: string | undefined;
  /** Milliseconds since the epoch. */
  timestamp: number;
  /** Unit-length vector of `text`; absent until embedded. */
  embedding?: number[] | undefined;
  /** Name of the model that made `embedding`; a memory is re-embedded when it differs. */
  embeddingModel?: string | undefined;
}

/** A stored memory: a draft with the store's id. */
export interface StoredMemory extends MemoryDraft {
  /** Unique in the store; stable for the memory's life. */
  id: string;
}

/** A search hit: the memory and its score under the search that found it. */
export interface ScoredMemory {
  memory: StoredMemory;
  /** Vector search: cosine similarity (-1..1). Word search: the store's relevance score (> 0). */
  score: number;
}

/** One user of one app: the scope of every read and write. */
export interface MemoryScope {
  appName: string;
  userId: string;
}
