/**
 * One database shared by `@adk/session-sql` and `@google/adk` 2.0.0's `DatabaseSessionService`:
 * each reads what the other wrote, and keeps appending. Lives in the bench package, the only one
 * that installs `@google/adk`. The PostgreSQL case skips when the server is unreachable (except
 * under CI=true). Runs the check in its own Node process, because vitest's resolver
 * cannot load `@google/adk` (it picks `@opentelemetry/api`'s extensionless ESM build).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import type { Event } from '@adk/core';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'adk-interop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface CheckOutput {
  written: Event;
  theirs: { state: Record<string, unknown>; events: Event[] };
  ours: { state: Record<string, unknown>; events: Event[] };
  finalIds: string[];
  /** Whether our events index was there once @google/adk had opened the database, and after ours. */
  index: { afterTheirs: boolean; afterOurs: boolean };
}

const POSTGRES_URL = process.env.ADK_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Whether the PostgreSQL server accepts connections; required under CI=true. */
async function postgresReachable(): Promise<boolean> {
  const url = new URL(POSTGRES_URL);
  const reachable = await new Promise<boolean>((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port || 5432), timeout: 3000 });
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
  if (!reachable && process.env.CI === 'true')
    throw new TypeError(`PostgreSQL is required under CI=true: ${POSTGRES_URL}`);
  if (!reachable)
    console.warn(
      `PostgreSQL at ${POSTGRES_URL} is unreachable: skipping the PostgreSQL interop test.`,
    );
  return reachable;
}

const targets = [
  { label: 'a SQLite file', target: join(dir, 'shared.db'), available: true },
  { label: 'a PostgreSQL database', target: POSTGRES_URL, available: await postgresReachable() },
];

describe.each(targets)('$label shared with @google/adk', ({ target, available }) => {
  it.skipIf(!available)(
    'each side reads the sessions, state and events the other wrote, and keeps appending',
    async () => {
      const script = fileURLToPath(new URL('./session-sql-interop-check.ts', import.meta.url));
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--conditions=source', '--import', 'tsx', script, target],
        { cwd: fileURLToPath(new URL('..', import.meta.url)) },
      );
      const output = JSON.parse(stdout.trim().split('\n').at(-1)!) as CheckOutput;
      const { written, theirs, ours } = output;

      // @google/adk reads what we wrote: merged state, events in order, user data verbatim.
      expect(theirs.state).toMatchObject({
        city: 'Paris',
        'app:units': 'metric',
        'user:home': 'Lyon',
        'user:homeCity': 'Lyon',
      });
      expect(theirs.events.map((event) => event.id)).toEqual(['e1', 'evt-full-1']);
      expect(theirs.events[1]!.content?.parts[4]).toEqual(written.content!.parts[4]);
      expect(theirs.events[1]!.content?.parts[5]).toEqual(written.content!.parts[5]);
      expect(theirs.events[1]!.actions.stateDelta).toEqual(written.actions.stateDelta);
      expect(theirs.events[1]!.timestamp).toBe(written.timestamp);

      // We read what @google/adk appended, and our next append is not refused as stale.
      expect(ours.events.map((event) => event.id)).toEqual(['e1', 'evt-full-1', 'from-adk-js']);
      expect(ours.events[2]!.content?.parts[0]?.text).toBe('from adk-js');
      expect(ours.state['user:home']).toBe('Nice');
      expect(ours.events[1]).toEqual(written);
      expect(output.finalIds).toEqual(['e1', 'evt-full-1', 'from-adk-js', 'after']);

      // @google/adk drops the indexes it does not know when it opens a database; we create ours
      // again when we open it next.
      expect(output.index).toEqual({ afterTheirs: false, afterOurs: true });
    },
    60_000,
  );
});
