/**
 * Shares one database between `@adk/session-sql` and `@google/adk` 2.0.0's
 * `DatabaseSessionService`, and prints what each side read as JSON. Run by
 * `session-sql-interop.test.ts` in its own Node process (vitest cannot load `@google/adk`).
 * Usage: `node --conditions=source --import tsx session-sql-interop-check.ts <file.db | postgres-url>`;
 * with a PostgreSQL server URL, a scratch database is created on it and dropped afterwards.
 */

import { createRequire } from 'node:module';

import { createEvent } from '@adk/core';
import { eventWithEveryField } from '@adk/core/testing';
import { SqlSessionService } from '@adk/session-sql';
import { createEvent as createTheirEvent } from '@google/adk';
import { DatabaseSessionService } from '@google/adk/sessions/database';

import { pgClient } from './pg-client';

const target = process.argv[2];
if (!target) throw new TypeError('usage: session-sql-interop-check <file.db | postgres-url>');
const key = { appName: 'weather', userId: 'alice', sessionId: 's1' };

let ourUrl: string;
let theirUrl: string;
let cleanup = async (): Promise<void> => undefined;
if (target.startsWith('postgres')) {
  const database = `adk_interop_${Math.random().toString(16).slice(2, 10)}`;
  const admin = pgClient(target);
  await admin.connect();
  await admin.query(`create database ${database}`);
  const url = new URL(target);
  url.pathname = `/${database}`;
  ourUrl = theirUrl = url.toString();
  cleanup = async () => {
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  };
} else {
  ourUrl = `sqlite:${target}`;
  theirUrl = `sqlite://${target}`;
}

/** Whether our events index (`adk_events_session_order`) is in the database, read without our service. */
async function ourIndexPresent(): Promise<boolean> {
  if (!target!.startsWith('postgres')) {
    // better-sqlite3 without its types (the bench does not depend on @types/better-sqlite3).
    const Database = createRequire(import.meta.url)('better-sqlite3') as new (
      path: string,
      options: { readonly: boolean },
    ) => { prepare(query: string): { all(): unknown[] }; close(): void };
    const file = new Database(target!, { readonly: true });
    try {
      return (
        file.prepare(`select 1 from sqlite_master where name = 'adk_events_session_order'`).all()
          .length > 0
      );
    } finally {
      file.close();
    }
  }
  const client = pgClient(ourUrl);
  await client.connect();
  try {
    const result = (await client.query(
      `select to_regclass('adk_events_session_order')::text as found`,
    )) as { rows: { found: string | null }[] };
    return result.rows[0]?.found != null;
  } finally {
    await client.end();
  }
}

// 1. Ours writes.
const ours = await SqlSessionService.fromUrl(ourUrl, { autoMigrate: true });
const session = await ours.createSession({
  ...key,
  state: { 'app:units': 'metric', 'user:home': 'Lyon', city: 'Paris' },
});
await ours.appendEvent({
  session,
  event: createEvent({
    id: 'e1',
    invocationId: 'i1',
    author: 'user',
    content: { role: 'user', parts: [{ text: 'hi' }] },
  }),
});
const full = eventWithEveryField(Date.now());
delete full.actions.compaction;
await ours.appendEvent({ session, event: full });
await ours.close();

// 2. @google/adk reads, then appends.
const theirs = new DatabaseSessionService(theirUrl);
const theirRead = await theirs.getSession(key);
// appendEvent updates the object in place: keep what was read.
const theirView = JSON.parse(
  JSON.stringify({ state: theirRead?.state, events: theirRead?.events }),
) as unknown;
await theirs.appendEvent({
  session: theirRead!,
  event: createTheirEvent({
    id: 'from-adk-js',
    invocationId: 'i2',
    author: 'user',
    content: { role: 'user', parts: [{ text: 'from adk-js' }] },
    actions: {
      stateDelta: { 'user:home': 'Nice' },
      artifactDelta: {},
      requestedAuthConfigs: {},
      requestedToolConfirmations: {},
    },
  }),
});
await (theirs as unknown as { orm?: { close(force: boolean): Promise<void> } }).orm?.close(true);
const indexAfterTheirs = await ourIndexPresent();

// 3. Ours reads that, and appends again.
const again = await SqlSessionService.fromUrl(ourUrl);
const ourRead = await again.getSession(key);
const indexAfterOurs = await ourIndexPresent();
const ourView = JSON.parse(
  JSON.stringify({ state: ourRead?.state, events: ourRead?.events }),
) as unknown;
await again.appendEvent({
  session: ourRead!,
  event: createEvent({ id: 'after', invocationId: 'i3', author: 'user' }),
});
const final = await again.getSession(key);
await again.close();
await cleanup();

console.log(
  JSON.stringify({
    written: full,
    theirs: theirView,
    ours: ourView,
    finalIds: final?.events.map((event) => event.id),
    index: { afterTheirs: indexAfterTheirs, afterOurs: indexAfterOurs },
  }),
);
