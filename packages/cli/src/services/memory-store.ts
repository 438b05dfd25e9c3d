import type { MemoryService } from '@adk/core';
import { InMemoryMemoryService, SqlMemoryService } from '@adk/memory';
import { maskDatabaseUrl } from '@adk/sql-kit';

import { UsageError } from '../errors';
import { openKysely } from './open-kysely';

/** A memory service and how to release it. */
export interface OpenedMemoryStore {
  service: MemoryService;
  /** Where memories live, for messages (passwords masked). */
  description: string;
  close(): Promise<void>;
}

/**
 * Open the memory store named by `--memory_service_uri`: none or `memory://` searches words in
 * memory; `sqlite:<file>` and `postgres://...` use SQL full-text search (tables created when
 * missing).
 */
export async function openMemoryStore(uri: string | undefined): Promise<OpenedMemoryStore> {
  if (uri === undefined || uri === 'memory://' || uri === 'memory:') {
    return {
      service: new InMemoryMemoryService(),
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
    return {
      service: new SqlMemoryService({ db, autoMigrate: true }),
      description: maskDatabaseUrl(uri),
      close: () => db.destroy(),
    };
  }
  throw new UsageError(
    `Unsupported --memory_service_uri "${maskDatabaseUrl(uri)}": use memory://, sqlite:<file> or postgres://...`,
  );
}
