import type { EmbeddingModel, MemoryService } from '@adk/core';
import {
  InMemoryMemoryService,
  InMemoryVectorStore,
  SemanticMemoryService,
  SqlMemoryService,
  SqlVectorStore,
} from '@adk/memory';
import { maskDatabaseUrl } from '@adk/sql-kit';

import { UsageError } from '../errors';
import { openKysely } from './open-kysely';

/** A memory service and how to release it. */
export interface OpenedMemoryStore {
  service: MemoryService;
  /** The service again when it searches by meaning (an embedding model was given). */
  semantic: SemanticMemoryService | undefined;
  /** Where memories live, for messages (passwords masked). */
  description: string;
  close(): Promise<void>;
}

/**
 * Open the memory store named by `--memory_service_uri`: none or `memory://` in memory;
 * `sqlite:<file>` and `postgres://...` in SQL (tables created when missing). Without `embedder`
 * memories are searched by words (full-text search in SQL); with one, by meaning and words
 * (`SemanticMemoryService` over `SqlVectorStore`: sqlite-vec or pgvector when the database has
 * them, exact search otherwise).
 */
export async function openMemoryStore(
  uri: string | undefined,
  options: { embedder?: EmbeddingModel } = {},
): Promise<OpenedMemoryStore> {
  const { embedder } = options;
  const semantic = (store: InMemoryVectorStore | SqlVectorStore) =>
    new SemanticMemoryService({ store, embedder: embedder! });
  if (uri === undefined || uri === 'memory://' || uri === 'memory:') {
    const service = embedder ? semantic(new InMemoryVectorStore()) : new InMemoryMemoryService();
    return {
      service,
      semantic: embedder ? (service as SemanticMemoryService) : undefined,
      description: 'in memory',
      close: async () => undefined,
    };
  }
  if (
    uri.startsWith('sqlite:') ||
    uri.startsWith('postgres://') ||
    uri.startsWith('postgresql://')
  ) {
    const db = await openKysely(uri);
    let service: MemoryService;
    if (embedder) {
      const vectors = new SqlVectorStore({ db });
      await vectors.migrate(); // settles its search path (sqlite-vec, pgvector or exact)
      service = semantic(vectors);
    } else service = new SqlMemoryService({ db, autoMigrate: true });
    return {
      service,
      semantic: embedder ? (service as SemanticMemoryService) : undefined,
      description: maskDatabaseUrl(uri),
      close: () => db.destroy(),
    };
  }
  throw new UsageError(
    `Unsupported --memory_service_uri "${maskDatabaseUrl(uri)}": use memory://, sqlite:<file> or postgres://...`,
  );
}
