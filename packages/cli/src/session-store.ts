import { InMemorySessionService } from '@adk/core';
import type { SessionService } from '@adk/core';
import { createSessionService } from '@adk/session-sql';
import { maskDatabaseUrl } from '@adk/sql-kit';

/** A session service and how to release it. */
export interface OpenedSessionStore {
  service: SessionService;
  /** Where sessions live, for messages (passwords masked). */
  description: string;
  close(): Promise<void>;
}

/**
 * Open the session store named by `--session_service_uri`: none or `memory://` keeps sessions in
 * memory; `sqlite:<file>` and `postgres://...` use the SQL store (tables created when missing).
 */
export async function openSessionStore(uri: string | undefined): Promise<OpenedSessionStore> {
  if (!uri || uri === 'memory://' || uri === 'memory:') {
    return {
      service: new InMemorySessionService(),
      description: 'in memory',
      close: async () => undefined,
    };
  }
  const service = await createSessionService(uri, { autoMigrate: true });
  return {
    service,
    description: maskDatabaseUrl(uri),
    close: () => service.close(),
  };
}
