/**
 * Shares one database between `@adk/session-sql` and `@google/adk` 2.0.0's
 * `DatabaseSessionService`, and prints what each side read as JSON. Run by
 * `session-sql-interop.test.ts` in its own Node process (vitest cannot load `@google/adk`).
 * Usage: `node --conditions=source --import tsx session-sql-interop-check.ts <file.db | postgres-url>`;
 * with a PostgreSQL server URL, a scratch database is created on it and dropped afterwards.
 */

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

// 3. Ours reads that, and appends again.
const again = await SqlSessionService.fromUrl(ourUrl);
const ourRead = await again.getSession(key);
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
  }),
);
