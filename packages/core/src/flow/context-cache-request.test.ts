import { describe, expect, it } from 'vitest';

import { LlmAgent } from '../agents/llm-agent';
import { App } from '../app/app';
import { InvalidArgumentError } from '../errors/invalid-argument-error';
import { createEvent, type Event } from '../events';
import { InvocationContext } from '../invocation/invocation-context';
import { createContextCacheConfig, type LlmRequest } from '../models';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { FakeModel } from '../testing/fake-model';
import { withContextCache } from './context-cache-request';

const agent = new LlmAgent({ name: 'support', model: new FakeModel({ responses: () => 'ok' }) });
const request: LlmRequest = { model: 'm', contents: [], config: {} };

async function contextWith(events: Event[], cache = true): Promise<InvocationContext> {
  const sessionService = new InMemorySessionService();
  const session = await sessionService.createSession({ appName: 'a', userId: 'u' });
  for (const event of events) await sessionService.appendEvent({ session, event });
  return new InvocationContext({
    invocationId: 'now',
    agent,
    session,
    sessionService,
    ...(cache ? { contextCacheConfig: createContextCacheConfig() } : {}),
  });
}

function answer(invocationId: string, author: string, extra: Partial<Event>): Event {
  return createEvent({ invocationId, author, ...extra });
}

const active = { cacheName: 'cachedContents/x', fingerprint: 'f', contentsCount: 2 };

describe('withContextCache', () => {
  it('leaves the request alone when the app does not cache', async () => {
    const ctx = await contextWith([], false);
    expect(withContextCache(request, ctx, 'support')).toBe(request);
  });

  it("carries the agent's latest cache, counted once more for a new invocation", async () => {
    const ctx = await contextWith([
      answer('old', 'support', {
        cacheMetadata: { ...active, invocationsUsed: 3 },
        usageMetadata: { promptTokenCount: 900 },
      }),
      answer('old', 'other', { cacheMetadata: { fingerprint: 'g', contentsCount: 9 } }),
    ]);
    expect(withContextCache(request, ctx, 'support')).toMatchObject({
      cacheConfig: { cacheIntervals: 10, ttlSeconds: 1800, minTokens: 0 },
      cacheMetadata: { ...active, invocationsUsed: 4 },
      cacheableContentsTokenCount: 900,
    });
  });

  it('does not count the same invocation twice, nor a fingerprint, nor rewound calls', async () => {
    const same = await contextWith([
      answer('now', 'support', { cacheMetadata: { ...active, invocationsUsed: 3 } }),
    ]);
    expect(withContextCache(request, same, 'support').cacheMetadata?.invocationsUsed).toBe(3);
    const fingerprint = await contextWith([
      answer('old', 'support', { cacheMetadata: { fingerprint: 'f', contentsCount: 1 } }),
    ]);
    expect(withContextCache(request, fingerprint, 'support').cacheMetadata).toEqual({
      fingerprint: 'f',
      contentsCount: 1,
    });
    const rewound = await contextWith([
      answer('kept', 'support', { cacheMetadata: { fingerprint: 'kept', contentsCount: 1 } }),
      answer('gone', 'support', { cacheMetadata: { ...active, invocationsUsed: 1 } }),
      createEvent({
        invocationId: 'r',
        author: 'user',
        actions: { rewindBeforeInvocationId: 'gone' },
      }),
    ]);
    expect(withContextCache(request, rewound, 'support').cacheMetadata?.fingerprint).toBe('kept');
  });
});

describe('App contextCacheConfig', () => {
  it('fills in defaults and refuses out-of-range members with a typed error', () => {
    const app = new App({ name: 'a', agent, contextCacheConfig: { ttlSeconds: 60 } });
    expect(app.contextCacheConfig).toEqual({ cacheIntervals: 10, ttlSeconds: 60, minTokens: 0 });
    expect(new App({ name: 'a', agent }).contextCacheConfig).toBeUndefined();
    for (const bad of [
      { cacheIntervals: 0 },
      { cacheIntervals: 101 },
      { ttlSeconds: 0 },
      { minTokens: -1 },
    ]) {
      let error: unknown;
      try {
        new App({ name: 'a', agent, contextCacheConfig: bad });
      } catch (caught) {
        error = caught;
      }
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain(Object.keys(bad)[0]);
    }
  });
});
