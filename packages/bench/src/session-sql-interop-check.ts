/**
 * Shares one SQLite file between `@adk/session-sql` and `@google/adk` 2.0.0's
 * `DatabaseSessionService`, and prints what each side read as JSON. Run by
 * `session-sql-interop.test.ts` in its own Node process (vitest cannot load `@google/adk`).
 * Usage: `node --conditions=source --import tsx session-sql-interop-check.ts <file.db>`.
 */
import { createEvent } from '@adk/core';
import { eventWithEveryField } from '@adk/core/testing';
import { SqlSessionService } from '@adk/session-sql';
import { createEvent as createTheirEvent } from '@google/adk';
import { DatabaseSessionService } from '@google/adk/sessions/database';

const path = process.argv[2];
if (!path) throw new TypeError('usage: session-sql-interop-check <file.db>');
const key = { appName: 'weather', userId: 'alice', sessionId: 's1' };

// 1. Ours writes.
const ours = await SqlSessionService.fromUrl(`sqlite:${path}`, { autoMigrate: true });
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
const theirs = new DatabaseSessionService(`sqlite://${path}`);
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
const again = await SqlSessionService.fromUrl(`sqlite:${path}`);
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

console.log(
  JSON.stringify({
    written: full,
    theirs: theirView,
    ours: ourView,
    finalIds: final?.events.map((event) => event.id),
  }),
);
