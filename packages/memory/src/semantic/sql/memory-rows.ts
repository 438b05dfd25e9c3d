import type { Content } from '@adk/core';
import { sql } from 'kysely';

import type { MemoryDraft, MemoryKind, StoredMemory } from '../stored-memory';
import type { MemoryRow } from './semantic-tables';
import { fromFloat32Bytes, toFloat32Bytes } from './vector-bytes';
import { toVectorSketch } from './vector-sketch';

/** A row read back (every column but PostgreSQL's `search_vector`). */
export type ReadRow = Omit<MemoryRow, 'id' | 'search_vector'> & { id: number | string };

/** The columns read for a memory. */
export const MEMORY_COLUMNS = [
  'id',
  'app_name',
  'user_id',
  'kind',
  'session_id',
  'event_id',
  'author',
  'timestamp',
  'content',
  'search_text',
  'embedding',
  'embedding_model',
  'embedding_dims',
] as const;

/** The row of a draft; PostgreSQL also indexes the text with `textSearchConfig`. */
export function toRow(
  draft: MemoryDraft,
  postgres: { textSearchConfig: string } | undefined,
): Record<string, unknown> {
  const embedding = draft.embedding ? toFloat32Bytes(draft.embedding) : null;
  const row: Record<string, unknown> = {
    app_name: draft.appName,
    user_id: draft.userId,
    kind: draft.kind,
    session_id: draft.sessionId ?? null,
    event_id: draft.eventId ?? null,
    author: draft.author ?? null,
    timestamp: draft.timestamp,
    content: JSON.stringify(draft.content),
    search_text: draft.text,
    embedding,
    embedding_model: draft.embedding ? (draft.embeddingModel ?? null) : null,
    embedding_dims: draft.embedding?.length ?? null,
  };
  if (postgres) {
    row.embedding_sketch = draft.embedding ? toVectorSketch(draft.embedding) : null;
    row.search_vector = sql`to_tsvector(cast(${postgres.textSearchConfig} as regconfig), ${draft.text})`;
  }
  return row;
}

/** The memory of a row. */
export function fromRow(row: ReadRow): StoredMemory {
  const embedding =
    row.embedding === null ? undefined : Array.from(fromFloat32Bytes(row.embedding));
  return {
    id: String(row.id),
    appName: row.app_name,
    userId: row.user_id,
    kind: row.kind as MemoryKind,
    ...(row.session_id !== null ? { sessionId: row.session_id } : {}),
    ...(row.event_id !== null ? { eventId: row.event_id } : {}),
    ...(row.author !== null ? { author: row.author } : {}),
    timestamp: Number(row.timestamp),
    text: row.search_text,
    content: JSON.parse(row.content) as Content,
    ...(embedding ? { embedding, embeddingModel: row.embedding_model ?? undefined } : {}),
  };
}
