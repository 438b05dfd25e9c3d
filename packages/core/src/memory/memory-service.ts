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
 * Which memories {@link MemoryService.deleteMemories} forgets: every memory of one user in one
 * app, or, with `sessionId`, only those that came from that session of that user.
 */
export interface DeleteMemoriesRequest {
  /** Non-empty. */
  appName: string;
  /** Non-empty. */
  userId: string;
  /** Non-empty when given: forget only what this session of the user contributed. */
  sessionId?: string;
}

export interface DeleteMemoriesResponse {
  /** How many remembered entries were deleted (0 when there were none). */
  deletedCount: number;
}

/**
 * Long-term memory across sessions: ingest finished sessions, search them later.
 *
 * Contract (identical for every implementation, checked by `memoryServiceConformance` in
 * `@adk/core/testing/vitest`):
 * - `addSessionToMemory` remembers every final event of the session that has text (thoughts
 *   excluded, and events a rewind removed, see `withoutRewoundEvents`); adding the same session again refreshes it without duplicating entries;
 * - `searchMemory` returns only entries of the given app and user, matching at least one word of
 *   the query case-insensitively, best matches first; a query without words returns nothing;
 * - query text is data, never syntax: quotes, operators or punctuation never cause an error;
 * - `deleteMemories`, when implemented, forgets exactly the requested user's (or user's session's)
 *   entries and nothing else, at once for every later search; a session added again afterwards is
 *   remembered again; a request without an app or a user is refused with `InvalidArgumentError`.
 */
export interface MemoryService {
  /** Add (or refresh) the session's events in memory. Idempotent per session. */
  addSessionToMemory(session: Session): Promise<void>;
  searchMemory(request: SearchMemoryRequest): Promise<SearchMemoryResponse>;
  /**
   * Forget memories: all of one user in one app (the right to erasure), or, with `sessionId`,
   * those that came from one session ("forget this conversation"). Deleting what is not there is
   * not an error (`deletedCount: 0`). It does not delete the session itself, and a plugin that
   * ingests sessions may add a session again when it continues: delete the session too (or stop
   * ingesting it) to forget it for good.
   *
   * Optional, like `delete_memories` in the Python ADK: a store that cannot delete (an external
   * index, an append-only log) omits it. Every service of `@adk/memory` implements it.
   *
   * @example
   * ```ts
   * await memory.deleteMemories?.({ appName: 'shop', userId: 'u42' }); // everything about u42
   * await memory.deleteMemories?.({ appName: 'shop', userId: 'u42', sessionId: 's7' });
   * ```
   */
  deleteMemories?(request: DeleteMemoriesRequest): Promise<DeleteMemoriesResponse>;
}
