import type { Content } from '../content';
import type { Session } from '../sessions/session';

/** One remembered piece of a past conversation. */
export interface MemoryEntry {
  content: Content;
  /** Who said it: `user` or an agent name. */
  author?: string;
  /** When it was said, milliseconds since the epoch. */
  timestamp?: number;
  /** Id of the session it came from. */
  sessionId?: string;
  /** Relevance score, higher is better, when the service ranks results. */
  score?: number;
}

export interface SearchMemoryRequest {
  appName: string;
  userId: string;
  query: string;
  /** Maximum number of entries (default chosen by the service, documented on it). */
  limit?: number;
}

export interface SearchMemoryResponse {
  memories: MemoryEntry[];
}

/**
 * Long-term memory across sessions: ingest finished sessions, search them later.
 *
 * Contract (identical for every implementation, checked by `memoryServiceConformance` in
 * `@adk/core/testing`):
 * - `addSessionToMemory` remembers every final event of the session that has text (thoughts
 *   excluded); adding the same session again refreshes it without duplicating entries;
 * - `searchMemory` returns only entries of the given app and user, matching at least one word of
 *   the query case-insensitively, best matches first; a query without words returns nothing;
 * - query text is data, never syntax: quotes, operators or punctuation never cause an error.
 */
export interface MemoryService {
  /** Add (or refresh) the session's events in memory. Idempotent per session. */
  addSessionToMemory(session: Session): Promise<void>;
  searchMemory(request: SearchMemoryRequest): Promise<SearchMemoryResponse>;
}
