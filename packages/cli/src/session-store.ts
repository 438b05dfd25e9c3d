import { configureContentsCache, InMemorySessionService } from '@adk/core';
import type { SessionLock, SessionService } from '@adk/core';
import { createSessionService, PostgresSessionLock } from '@adk/session-sql';
import { maskDatabaseUrl, parseDatabaseUrl } from '@adk/sql-kit';

/** A session service and how to release it. */
export interface OpenedSessionStore {
  service: SessionService;
  /**
   * The lock shared with the other processes on the same sessions, when asked for and the store
   * is PostgreSQL (a `PostgresSessionLock`: one connection, advisory locks); give it to every
   * Runner as `sessionLock`.
   */
  sessionLock: SessionLock | undefined;
  /** Where sessions live, for messages (passwords masked). */
  description: string;
  close(): Promise<void>;
}

/** Options of {@link openSessionStore}. */
export interface OpenSessionStoreOptions {
  /**
   * Open a cross-process session lock when the store is shared (PostgreSQL): what several server
   * instances and workers on one database need for turns on one session to take turns.
   */
  sharedLock?: boolean;
  /**
   * Heap each session cache of the process may hold (see `SERVER_SESSION_CACHE_MIB`): the SQL
   * store's loaded sessions and core's process-wide contents cache. Default: the libraries' own.
   */
  cacheBytes?: number;
}

/**
 * Open the session store named by `--session_service_uri`: none or `memory://` keeps sessions in
 * memory; `sqlite:<file>` and `postgres://...` use the SQL store (tables created when missing).
 */
export async function openSessionStore(
  uri: string | undefined,
  options: OpenSessionStoreOptions = {},
): Promise<OpenedSessionStore> {
  if (options.cacheBytes !== undefined) configureContentsCache({ maxBytes: options.cacheBytes });
  if (!uri || uri === 'memory://' || uri === 'memory:') {
    return {
      service: new InMemorySessionService(),
      sessionLock: undefined,
      description: 'in memory',
      close: async () => undefined,
    };
  }
  const service = await createSessionService(uri, {
    autoMigrate: true,
    ...(options.cacheBytes === undefined ? {} : { loadedSessionsMaxBytes: options.cacheBytes }),
  });
  let sessionLock: PostgresSessionLock | undefined;
  if (options.sharedLock && parseDatabaseUrl(uri).kind === 'postgres') {
    try {
      sessionLock = await PostgresSessionLock.open({ url: uri });
    } catch (error) {
      await service.close();
      throw error;
    }
  }
  return {
    service,
    sessionLock,
    description: maskDatabaseUrl(uri),
    close: async () => {
      await sessionLock?.close();
      await service.close();
    },
  };
}
