import {
  validateDeleteMemoriesRequest,
  type DeleteMemoriesRequest,
  type DeleteMemoriesResponse,
  type MemoryEntry,
  type MemoryService,
  type SearchMemoryRequest,
  type SearchMemoryResponse,
  type Session,
} from '@adk/core';

import { queryWords, searchLimit, sessionToRecords, wordsOf } from '../internal/memory-text';

interface IndexedEntry {
  entry: MemoryEntry;
  words: Set<string>;
}

/**
 * Memory kept in process memory, searched word by word: an entry matches when it shares at least
 * one word with the query (case-insensitive, letters and digits of any script); entries sharing
 * more distinct words come first, then the most recent. Returns at most `limit` entries
 * (default 10). `deleteMemories` forgets a user's or a session's entries. For tests, development
 * and single-process apps.
 *
 * @example
 * ```ts
 * const memory = new InMemoryMemoryService();
 * await memory.addSessionToMemory(session);
 * const { memories } = await memory.searchMemory({ appName, userId, query: 'favourite city' });
 * ```
 */
export class InMemoryMemoryService implements MemoryService {
  /** app+user key -> session id -> entries. */
  readonly #users = new Map<string, Map<string, IndexedEntry[]>>();

  async addSessionToMemory(session: Session): Promise<void> {
    const key = userKey(session.appName, session.userId);
    let sessions = this.#users.get(key);
    if (!sessions) {
      sessions = new Map();
      this.#users.set(key, sessions);
    }
    sessions.set(
      session.id,
      sessionToRecords(session).map((record) => ({
        entry: structuredClone(record.entry),
        words: new Set(wordsOf(record.text)),
      })),
    );
  }

  async searchMemory(request: SearchMemoryRequest): Promise<SearchMemoryResponse> {
    const words = queryWords(request.query);
    const sessions = this.#users.get(userKey(request.appName, request.userId));
    if (words.length === 0 || !sessions) return { memories: [] };
    const scored: { entry: MemoryEntry; score: number }[] = [];
    for (const entries of sessions.values()) {
      for (const { entry, words: entryWords } of entries) {
        const score = words.filter((w) => entryWords.has(w)).length;
        if (score > 0) scored.push({ entry, score });
      }
    }
    scored.sort((a, b) => b.score - a.score || (b.entry.timestamp ?? 0) - (a.entry.timestamp ?? 0));
    return {
      memories: scored
        .slice(0, searchLimit(request.limit))
        .map(({ entry, score }) => ({ ...structuredClone(entry), score })),
    };
  }

  /** Forget every entry of the user in the app, or only those of `sessionId`. */
  async deleteMemories(request: DeleteMemoriesRequest): Promise<DeleteMemoriesResponse> {
    validateDeleteMemoriesRequest(request);
    const key = userKey(request.appName, request.userId);
    const sessions = this.#users.get(key);
    if (!sessions) return { deletedCount: 0 };
    let deletedCount = 0;
    if (request.sessionId === undefined) {
      for (const entries of sessions.values()) deletedCount += entries.length;
      this.#users.delete(key);
      return { deletedCount };
    }
    deletedCount = sessions.get(request.sessionId)?.length ?? 0;
    sessions.delete(request.sessionId);
    if (sessions.size === 0) this.#users.delete(key);
    return { deletedCount };
  }
}

function userKey(appName: string, userId: string): string {
  return JSON.stringify([appName, userId]);
}
