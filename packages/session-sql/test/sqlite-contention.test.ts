import { fileURLToPath } from 'node:url';

import { ProcessRace, temporaryDirectory } from '@adk/test-databases';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { SqlSessionService } from '../src';

const WORKER = fileURLToPath(new URL('./fixtures/contention-worker.ts', import.meta.url));
const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROCESSES = 8;
const APPENDS = 100;

const temp = temporaryDirectory('adk-session-sql-contention-');
const url = `sqlite:${temp.file('shared.db')}`;
let race: ProcessRace | undefined;

beforeAll(async () => {
  const service = await SqlSessionService.fromUrl(url);
  await service.migrate();
  await service.close();
  race = await ProcessRace.start(WORKER, PROCESSES, PACKAGE_ROOT);
}, 180_000);

afterAll(async () => {
  await race?.stop();
  temp.remove();
});

it(`stores all ${PROCESSES * APPENDS} appends of ${PROCESSES} processes writing one SQLite file at once`, async () => {
  const replies = await race!.round([url, 'contention', String(APPENDS)]);
  expect(replies).toEqual(Array.from({ length: PROCESSES }, () => ({ ok: true })));
  const service = await SqlSessionService.fromUrl(url);
  try {
    const { sessions } = await service.listSessions({ appName: 'contention' });
    expect(sessions).toHaveLength(PROCESSES);
    let stored = 0;
    for (const listed of sessions) {
      const session = await service.getSession({
        appName: 'contention',
        userId: listed.userId,
        sessionId: listed.id,
      });
      expect(session?.state.turn).toBe(APPENDS - 1);
      stored += session?.events.length ?? 0;
    }
    expect(stored).toBe(PROCESSES * APPENDS);
  } finally {
    await service.close();
  }
}, 600_000);
