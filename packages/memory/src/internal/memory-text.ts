import {
  withoutRewoundEvents,
  type Content,
  type Event,
  type MemoryEntry,
  type Session,
} from '@adk/core';

/** One event turned into something memory can store and search. */
export interface MemoryRecord {
  eventId: string;
  entry: MemoryEntry;
  /** The searchable text: the event's answer text parts, joined by newlines. */
  text: string;
}

const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** Query words beyond this many are ignored (a pasted document is not a query). */
export const MAX_QUERY_WORDS = 64;

/** The lower-cased words of `text` (letters, marks and digits of any script), in order, with repeats. */
export function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []) as string[];
}

/** The distinct lower-cased words of a query, in first-seen order, at most {@link MAX_QUERY_WORDS}. */
export function queryWords(query: string): string[] {
  return [...new Set(wordsOf(typeof query === 'string' ? query : ''))].slice(0, MAX_QUERY_WORDS);
}

/** What memory keeps of an event: its non-thought text parts; `undefined` when there are none. */
export function eventToRecord(session: Session, event: Event): MemoryRecord | undefined {
  if (event.partial || !event.content) return undefined;
  const parts = event.content.parts.filter(
    (p) => typeof p.text === 'string' && !p.thought && p.text.trim() !== '',
  );
  if (parts.length === 0) return undefined;
  const content: Content = {
    ...(event.content.role !== undefined ? { role: event.content.role } : {}),
    parts: parts.map((p) => ({ text: p.text! })),
  };
  return {
    eventId: event.id,
    text: parts.map((p) => p.text).join('\n'),
    entry: { content, author: event.author, timestamp: event.timestamp, sessionId: session.id },
  };
}

/** Every rememberable event of a session, oldest first; what a rewind removed is left out. */
export function sessionToRecords(session: Session): MemoryRecord[] {
  const records: MemoryRecord[] = [];
  for (const event of withoutRewoundEvents(session.events)) {
    const record = eventToRecord(session, event);
    if (record) records.push(record);
  }
  return records;
}

/** Default number of memories a search returns. */
export const DEFAULT_MEMORY_LIMIT = 10;

/** The effective limit of a search request. */
export function searchLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_MEMORY_LIMIT;
  return Math.max(0, Math.floor(limit));
}
