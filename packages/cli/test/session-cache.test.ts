import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { configureContentsCache, createEvent } from '@adk/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { serve, UsageError } from '../src';
import { SERVER_SESSION_CACHE_MIB, sessionCacheBytes } from '../src/session-cache';
import { openSessionStore, type OpenedSessionStore } from '../src/session-store';

const agentsDir = fileURLToPath(new URL('./fixtures/agents/', import.meta.url));
const MIB = 2 ** 20;

let dir: string;
let store: OpenedSessionStore | undefined;
let restore: { maxBytes: number };
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adk-cli-cache-'));
  restore = configureContentsCache({});
});
afterEach(async () => {
  await store?.close();
  store = undefined;
  configureContentsCache(restore);
  rmSync(dir, { recursive: true, force: true });
});

/** Whether two reads of a stored session hand out the same event objects (kept between reads). */
async function keptBetweenReads(opened: OpenedSessionStore): Promise<boolean> {
  const service = opened.service;
  const session = await service.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
  await service.appendEvent({
    session,
    event: createEvent({
      invocationId: 'i1',
      author: 'user',
      content: { role: 'user', parts: [{ text: 'hi' }] },
    }),
  });
  const key = { appName: 'app', userId: 'u', sessionId: 's' };
  const first = (await service.getSession(key))!.events[0];
  const second = (await service.getSession(key))!.events[0];
  expect(second).toEqual(first);
  return second === first;
}

describe('--session_cache_mib', () => {
  it('reads MiB, defaults to the server budget, and refuses what is not a size', () => {
    expect(sessionCacheBytes(undefined)).toBe(SERVER_SESSION_CACHE_MIB * MIB);
    expect(sessionCacheBytes('8')).toBe(8 * MIB);
    expect(sessionCacheBytes('0.5')).toBe(MIB / 2);
    expect(sessionCacheBytes('0')).toBe(0);
    for (const bad of ['', 'lots', '-1', 'Infinity'])
      expect(() => sessionCacheBytes(bad)).toThrow(UsageError);
  });

  it('sizes both session caches of the process', async () => {
    store = await openSessionStore(`sqlite:${join(dir, 'kept.db')}`, { cacheBytes: 48 * MIB });
    expect(configureContentsCache({}).maxBytes).toBe(48 * MIB);
    expect(await keptBetweenReads(store)).toBe(true);
    await store.close();
    // Nothing kept: each read decodes the session again.
    store = await openSessionStore(`sqlite:${join(dir, 'none.db')}`, { cacheBytes: 0 });
    expect(configureContentsCache({}).maxBytes).toBe(0);
    expect(await keptBetweenReads(store)).toBe(false);
  });

  it('gives adk api_server the server budget unless told otherwise', async () => {
    configureContentsCache({ maxBytes: 4 * MIB });
    const server = await serve({
      agentsDir,
      port: 0,
      sessionServiceUri: `sqlite:${join(dir, 'server.db')}`,
    });
    try {
      expect(configureContentsCache({}).maxBytes).toBe(SERVER_SESSION_CACHE_MIB * MIB);
    } finally {
      await server.close();
    }
  });
});
