import { createEvent as createOurEvent, type Session } from '@adk/core';
import { SqlSessionService } from '@adk/session-sql';
import { sql } from 'kysely';
import { createEvent as createTheirEvent, type Session as TheirSession } from '@google/adk';
import { DatabaseSessionService } from '@google/adk/sessions/database';

import type { SessionStoreUnderTest } from './session-sql-workload';

const APP = 'bench_app';

/** SQLite's `PRAGMA synchronous` answer (0 to 3) by name. */
const sqliteSynchronousName = (level: unknown) => ['off', 'normal', 'full', 'extra'][Number(level)];
const USER = 'bench_user';

/** ADK for TypeScript: `SqlSessionService.fromUrl`. */
export async function ourStore(url: string, schema?: string): Promise<SessionStoreUnderTest> {
  const service = await SqlSessionService.fromUrl(url, {
    autoMigrate: true,
    // Every timed read is a full read from the database, as @google/adk's: the incremental read of
    // a recently read session is measured by the runner-turn comparison (session-sql-turns.ts).
    loadedSessions: 0,
    ...(schema ? { schema } : {}),
  });
  await service.migrate();
  return {
    name: 'ours',
    createSession: (sessionId) => service.createSession({ appName: APP, userId: USER, sessionId }),
    append: async (session, event) => {
      await service.appendEvent({
        session: session as Session,
        event: createOurEvent({
          invocationId: 'bench',
          author: event.author,
          content: event.content,
          actions: { stateDelta: event.stateDelta },
        }),
      });
    },
    get: async (sessionId) =>
      (await service.getSession({ appName: APP, userId: USER, sessionId }))?.events.length ?? 0,
    durability: async () => {
      const first = async (query: string) =>
        Object.values((await sql.raw(query).execute(service.database)).rows[0] as object)[0];
      if (service.dialect === 'postgres')
        return `synchronous_commit=${String(await first('show synchronous_commit'))}`;
      return `${String(await first('pragma journal_mode'))}, synchronous=${sqliteSynchronousName(await first('pragma synchronous')) ?? '?'}`;
    },
    close: () => service.close(),
  };
}

/** The part of MikroORM's `MikroORM` the benchmark uses to read the connection's settings. */
interface TheirOrm {
  em: { getConnection(): { execute(query: string): Promise<unknown> } };
}

/** @google/adk 2.0.0: `DatabaseSessionService` (MikroORM 6.6.16). */
export async function theirStore(url: string): Promise<SessionStoreUnderTest> {
  const service = new DatabaseSessionService(url);
  return {
    name: 'theirs',
    createSession: (sessionId) => service.createSession({ appName: APP, userId: USER, sessionId }),
    append: async (session, event) => {
      await service.appendEvent({
        session: session as TheirSession,
        event: createTheirEvent({
          invocationId: 'bench',
          author: event.author,
          content: event.content as never,
          actions: {
            stateDelta: event.stateDelta,
            artifactDelta: {},
            requestedAuthConfigs: {},
            requestedToolConfirmations: {},
          },
        }),
      });
    },
    get: async (sessionId) =>
      (await service.getSession({ appName: APP, userId: USER, sessionId }))?.events.length ?? 0,
    durability: async () => {
      // The ORM's own connection (opened by the first call above), where its pragmas apply.
      const orm = (service as unknown as { orm: TheirOrm }).orm;
      const connection = orm.em.getConnection();
      const first = async (query: string) =>
        Object.values(((await connection.execute(query)) as object[])[0] ?? {})[0] as unknown;
      if (url.startsWith('postgres'))
        return `synchronous_commit=${String(await first('show synchronous_commit'))}`;
      return `${String(await first('pragma journal_mode'))}, synchronous=${sqliteSynchronousName(await first('pragma synchronous')) ?? '?'}`;
    },
    close: async () => {
      const orm = (service as unknown as { orm?: { close(force?: boolean): Promise<void> } }).orm;
      await orm?.close(true);
    },
  };
}
