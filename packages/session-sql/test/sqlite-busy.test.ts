import { createEvent } from '@adk/core';
import { temporaryDirectory } from '@adk/test-databases';
import SQLite from 'better-sqlite3';
import { afterAll, beforeEach, expect, it } from 'vitest';

import { SqlSessionService, SqliteBusyError } from '../src';

const temp = temporaryDirectory('adk-session-sql-busy-');
let url: string;
let other: SQLite.Database;

beforeEach(async () => {
  const file = temp.file(`${Math.random().toString(36).slice(2)}.db`);
  url = `sqlite:${file}`;
  const setup = await SqlSessionService.fromUrl(url);
  await setup.migrate();
  await setup.close();
  // Another process's connection on the same file, holding the write lock while a test says so.
  other = new SQLite(file, { timeout: 0 });
  return () => {
    if (other.inTransaction) other.exec('rollback');
    other.close();
  };
});
afterAll(() => temp.remove());

const key = { appName: 'busy', userId: 'u', sessionId: 's' };
const event = (id: string) => createEvent({ id, invocationId: 'i', author: 'a' });

it('completes an append that waited longer than the busy timeout for another writer', async () => {
  // A 20 ms busy timeout: the other writer's 300 ms outlasts it, so the service must try again.
  const service = await SqlSessionService.fromUrl(url, { busyTimeoutMs: 20 });
  try {
    const session = await service.createSession(key);
    other.exec('begin immediate');
    const released = setTimeout(() => other.exec('commit'), 300);
    try {
      await service.appendEvent({ session, event: event('e1') });
    } finally {
      clearTimeout(released);
    }
    expect((await service.getSession(key))?.events.map((e) => e.id)).toEqual(['e1']);
  } finally {
    await service.close();
  }
});

it('by default, an append outwaits another writer that holds the lock for 20 s', async () => {
  // Under sustained writes by other processes one writer can wait seconds for SQLite's lock (it is
  // not queued fairly); the default bound (60 s) outlasts 20 s (the old 15 s bound did not).
  const service = await SqlSessionService.fromUrl(url, { busyTimeoutMs: 20 });
  try {
    const session = await service.createSession(key);
    other.exec('begin immediate');
    const released = setTimeout(() => other.exec('commit'), 20_000);
    const started = Date.now();
    try {
      await service.appendEvent({ session, event: event('e1') });
    } finally {
      clearTimeout(released);
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(19_000);
    expect((await service.getSession(key))?.events.map((e) => e.id)).toEqual(['e1']);
  } finally {
    await service.close();
  }
});

it('fails with a typed, retryable SqliteBusyError past busyRetryMs, storing nothing', async () => {
  const service = await SqlSessionService.fromUrl(url, { busyTimeoutMs: 20, busyRetryMs: 100 });
  try {
    const session = await service.createSession(key);
    other.exec('begin immediate');
    const error = await service
      .appendEvent({ session, event: event('e1') })
      .catch((caught: unknown) => caught);
    other.exec('commit');
    expect(SqliteBusyError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'SQLITE_BUSY', retryable: true });
    expect(session.events).toEqual([]);
    expect((await service.getSession(key))?.events).toEqual([]);
    // Nothing was written, so the same Session object is still current: the retry succeeds.
    await service.appendEvent({ session, event: event('e1') });
    expect((await service.getSession(key))?.events.map((e) => e.id)).toEqual(['e1']);
  } finally {
    await service.close();
  }
});
