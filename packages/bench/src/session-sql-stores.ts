import { createEvent as createOurEvent, type Session } from '@adk/core';
import { SqlSessionService } from '@adk/session-sql';
import { createEvent as createTheirEvent, type Session as TheirSession } from '@google/adk';
import { DatabaseSessionService } from '@google/adk/sessions/database';

import type { SessionStoreUnderTest } from './session-sql-workload';

const APP = 'bench_app';
const USER = 'bench_user';

/** ADK for TypeScript: `SqlSessionService.fromUrl`. */
export async function ourStore(url: string, schema?: string): Promise<SessionStoreUnderTest> {
  const service = await SqlSessionService.fromUrl(url, {
    autoMigrate: true,
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
    close: () => service.close(),
  };
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
    close: async () => {
      const orm = (service as unknown as { orm?: { close(force?: boolean): Promise<void> } }).orm;
      await orm?.close(true);
    },
  };
}
