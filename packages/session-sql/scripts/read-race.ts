/**
 * Race repro for issue 32 item 1: in each of 10 sessions, one writer appends 30 events through a
 * Session it read while two readers read the session back to back; prints how many reads (and
 * sessions) listed an event twice. Usage (from packages/session-sql):
 * `node --conditions=source --import tsx scripts/read-race.ts <sqlite:file | postgres-url>`.
 */
import { createEvent } from '@adk/core';

import { sql } from 'kysely';

import { SqlSessionService } from '../src';

const url = process.argv[2];
if (!url) throw new TypeError('usage: read-race <sqlite:file | postgres-url>');
// PostgreSQL: a scratch schema, dropped at the end.
const schema = url.startsWith('postgres') ? `adk_read_race_${process.pid}` : undefined;
const service = await SqlSessionService.fromUrl(url, { autoMigrate: true, schema });
const appName = `read-race-${Date.now()}`;
let reads = 0;
let duplicatedReads = 0;
let duplicatedSessions = 0;
for (let index = 0; index < 10; index++) {
  const created = await service.createSession({ appName, userId: 'u' });
  const key = { appName, userId: 'u', sessionId: created.id };
  let session = (await service.getSession(key))!;
  let appending = true;
  let duplicated = 0;
  const reader = async (): Promise<void> => {
    while (appending) {
      const ids = (await service.getSession(key))!.events.map((event) => event.id);
      reads++;
      if (new Set(ids).size !== ids.length) duplicated++;
    }
  };
  const readers = [reader(), reader()];
  for (let round = 0; round < 30; round++) {
    await service.appendEvent({ session, event: createEvent({ invocationId: 'i', author: 'a' }) });
    if (round % 5 === 4) session = (await service.getSession(key))!;
  }
  appending = false;
  await Promise.all(readers);
  duplicatedReads += duplicated;
  if (duplicated > 0) duplicatedSessions++;
}
if (schema) await sql`drop schema ${sql.id(schema)} cascade`.execute(service.database);
await service.close();
console.log(
  JSON.stringify({
    url: url.replace(/\/\/[^@]*@/, '//'),
    reads,
    duplicatedReads,
    duplicatedSessions,
    sessions: 10,
  }),
);
