import { createEvent, InvalidArgumentError, modelContent, type Event } from '@adk/core';
import { sqliteKysely, temporaryDirectory } from '@adk/test-databases';
import type { KyselyPlugin, PluginTransformResultArgs, QueryResult, UnknownRow } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { SqlSessionService } from '../src';

/** Counts the rows statements return: a read of a kept session returns only the session row. */
class RowCounter implements KyselyPlugin {
  rows = 0;
  transformQuery<T>(args: { node: T }): T {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.rows += args.result.rows.length;
    return args.result;
  }
}

const temp = temporaryDirectory('adk-session-sql-bytes-');
const counter = new RowCounter();
/** About 10 KB of heap per event. */
const bigEvent = (index: number): Event =>
  createEvent({
    invocationId: 'i',
    author: 'agent',
    content: modelContent(`${index} ${'x'.repeat(10_000)}`),
  });
let service: SqlSessionService;

beforeAll(async () => {
  service = new SqlSessionService({
    db: sqliteKysely(temp.file('bytes.db'), { wal: true, plugins: [counter] }),
    ownsDatabase: true,
    loadedSessionsMaxBytes: 200_000,
  });
  await service.migrate();
});
afterAll(async () => {
  await service.close();
  temp.remove();
});

async function sessionOf(sessionId: string, events: number): Promise<void> {
  const session = await service.createSession({ appName: 'bytes', userId: 'u', sessionId });
  for (let index = 0; index < events; index++)
    await service.appendEvent({ session, event: bigEvent(index) });
}

/** Read a session; returns how many rows the read fetched and checks its events. */
async function rowsOfRead(sessionId: string, events: number): Promise<number> {
  counter.rows = 0;
  const read = await service.getSession({ appName: 'bytes', userId: 'u', sessionId });
  expect(read?.events).toHaveLength(events);
  return counter.rows;
}

it('keeps sessions within loadedSessionsMaxBytes, dropping the least recently read first', async () => {
  await sessionOf('a', 8); // ~80 KB
  await sessionOf('b', 12); // ~120 KB
  expect(await rowsOfRead('a', 8)).toBeGreaterThanOrEqual(8); // first read: everything
  expect(await rowsOfRead('a', 8)).toBeLessThan(3); // kept: the session row only
  expect(await rowsOfRead('b', 12)).toBeGreaterThanOrEqual(12);
  // a + b pass the 200 KB bound: a, read least recently, was dropped; b is kept.
  expect(await rowsOfRead('b', 12)).toBeLessThan(3);
  expect(await rowsOfRead('a', 8)).toBeGreaterThanOrEqual(8);
});

it('keeps no session larger than the bound on its own, and still reads it whole and right', async () => {
  await sessionOf('huge', 25); // ~250 KB
  for (let round = 0; round < 3; round++)
    expect(await rowsOfRead('huge', 25)).toBeGreaterThanOrEqual(25);
});

/** A service with the default bounds on a new database file, and the rows its reads return. */
async function serviceWithDefaults(file: string) {
  const counted = new RowCounter();
  const defaults = new SqlSessionService({
    db: sqliteKysely(temp.file(file), { wal: true, plugins: [counted] }),
    ownsDatabase: true,
  });
  await defaults.migrate();
  return { counted, defaults };
}

it('keeps about 4 MiB of events by default', async () => {
  const { counted, defaults } = await serviceWithDefaults('defaults.db');
  try {
    /** Two sessions of about 2.5 MB each: one fits in 4 MiB, both do not. */
    for (const sessionId of ['first', 'second']) {
      const session = await defaults.createSession({ appName: 'bytes', userId: 'u', sessionId });
      for (let index = 0; index < 25; index++)
        await defaults.appendEvent({
          session,
          event: createEvent({
            invocationId: 'i',
            author: 'agent',
            content: modelContent(`${index} ${'z'.repeat(100_000)}`),
          }),
        });
    }
    const rowsOf = async (sessionId: string) => {
      counted.rows = 0;
      const read = await defaults.getSession({ appName: 'bytes', userId: 'u', sessionId });
      expect(read?.events).toHaveLength(25);
      return counted.rows;
    };
    expect(await rowsOf('first')).toBeGreaterThanOrEqual(25);
    expect(await rowsOf('first')).toBeLessThan(3); // kept
    expect(await rowsOf('second')).toBeGreaterThanOrEqual(25);
    expect(await rowsOf('second')).toBeLessThan(3); // kept, and the first dropped for it
    expect(await rowsOf('first')).toBeGreaterThanOrEqual(25);
  } finally {
    await defaults.close();
  }
});

it('keeps every session of a server taking turns in rotation, past the 100 it once kept', async () => {
  const { counted, defaults } = await serviceWithDefaults('rotation.db');
  try {
    const ids = Array.from({ length: 150 }, (_, index) => `s${index}`);
    for (const sessionId of ids) {
      const session = await defaults.createSession({ appName: 'rotation', userId: 'u', sessionId });
      for (let index = 0; index < 4; index++)
        await defaults.appendEvent({
          session,
          event: createEvent({ invocationId: 'i', author: 'agent', content: modelContent('hi') }),
        });
    }
    for (let round = 0; round < 2; round++) {
      counted.rows = 0;
      for (const sessionId of ids) {
        const read = await defaults.getSession({ appName: 'rotation', userId: 'u', sessionId });
        expect(read?.events).toHaveLength(4);
      }
      // The first round reads every event; the second, at most two rows a session (no event).
      if (round === 0) expect(counted.rows).toBeGreaterThanOrEqual(150 * 4);
      else expect(counted.rows).toBeLessThanOrEqual(150 * 2);
    }
  } finally {
    await defaults.close();
  }
});

it('refuses a loadedSessionsMaxBytes that is not a number of bytes', () => {
  const attempt = () =>
    new SqlSessionService({ db: service.database, loadedSessionsMaxBytes: Number.NaN });
  expect(attempt).toThrow(InvalidArgumentError);
});
