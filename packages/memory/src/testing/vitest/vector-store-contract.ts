import { expect, it } from 'vitest';

import type { MemoryVectorStore } from '../../semantic/memory-vector-store';
import type { MemoryDraft } from '../../semantic/stored-memory';
import { conceptDraft } from '../concept-draft';
import { conceptVector } from '../concept-vector';

const fact = (appName: string, text: string, timestamp: number, userId = 'alice'): MemoryDraft =>
  conceptDraft(appName, userId, text, timestamp);

/** The store's own contract: listing, updating, deleting by id, facts kept apart from sessions. */
export function vectorStoreContract(
  makeStore: () => Promise<MemoryVectorStore> | MemoryVectorStore,
  newApp: () => string,
): void {
  it('store: lists newest first, updates and deletes by id, within one user only', async () => {
    const store = await makeStore();
    const app = newApp();
    const [a, b] = await store.insert([
      fact(app, 'likes espresso', 1000),
      fact(app, 'has a dog', 2000),
    ]);
    await store.insert([fact(app, 'bob has a cat', 3000, 'bob')]);
    const scope = { appName: app, userId: 'alice' };
    expect((await store.list({ ...scope, limit: 10 })).map((m) => m.text)).toEqual([
      'has a dog',
      'likes espresso',
    ]);
    expect((await store.list({ ...scope, limit: 1, offset: 1 })).map((m) => m.text)).toEqual([
      'likes espresso',
    ]);
    await store.update([
      {
        ...a!,
        text: 'likes tea',
        content: { parts: [{ text: 'likes tea' }] },
        embedding: conceptVector('likes tea'),
      },
    ]);
    // An id of another user is not touched.
    await store.update([{ ...b!, userId: 'bob', text: 'hacked' }]);
    const listed = await store.list({ ...scope, limit: 10 });
    expect(listed.map((m) => m.text).sort()).toEqual(['has a dog', 'likes tea']);
    expect(
      (await store.searchByWords({ ...scope, words: ['tea'], limit: 5 })).map((h) => h.memory.text),
    ).toEqual(['likes tea']);
    expect(await store.delete({ appName: app, userId: 'bob', ids: [b!.id] })).toBe(0);
    expect(await store.delete({ ...scope, ids: [b!.id] })).toBe(1);
    expect((await store.list({ ...scope, limit: 10 })).map((m) => m.text)).toEqual(['likes tea']);
    expect(
      (await store.list({ appName: app, userId: 'bob', limit: 10 })).map((m) => m.text),
    ).toEqual(['bob has a cat']);
  });

  it('store: replacing a session keeps facts, and results are copies', async () => {
    const store = await makeStore();
    const app = newApp();
    const scope = { appName: app, userId: 'alice' };
    await store.insert([{ ...fact(app, 'prefers espresso', 1000), sessionId: 's1' }]);
    const event = (text: string): MemoryDraft => ({
      ...fact(app, text, 2000),
      kind: 'event',
      sessionId: 's1',
      eventId: text,
    });
    await store.replaceSession(scope, 's1', [event('first words')]);
    await store.replaceSession(scope, 's1', [event('second words')]);
    expect(
      (await store.list({ ...scope, limit: 10 })).map((m) => `${m.kind}:${m.text}`).sort(),
    ).toEqual(['event:second words', 'fact:prefers espresso']);
    const [hit] = await store.searchByVector({
      ...scope,
      vector: conceptVector('coffee'),
      model: 'concept-256',
      limit: 1,
      minSimilarity: 0.3,
    });
    expect(hit?.memory.text).toBe('prefers espresso');
    hit!.memory.content.parts[0]!.text = 'tampered';
    hit!.memory.embedding![0] = 42;
    const [again] = await store.searchByVector({
      ...scope,
      vector: conceptVector('coffee'),
      model: 'concept-256',
      limit: 1,
      minSimilarity: 0.3,
    });
    expect(again?.memory.content.parts[0]?.text).toBe('prefers espresso');
    expect(again?.score).toBeCloseTo(hit!.score, 5);
  });

  it('store: many writers replacing one session at once leave exactly one of their copies', async () => {
    const store = await makeStore();
    const app = newApp();
    const scope = { appName: app, userId: 'alice' };
    const events = (writer: number): MemoryDraft[] =>
      Array.from({ length: 5 }, (_, i) => ({
        ...fact(app, `writer ${writer} line ${i}`, 1000 + i),
        kind: 'event',
        sessionId: 's1',
        eventId: `e${i}`,
      }));
    // On PostgreSQL, twelve at once used to exhaust the writers' retries on the unique key.
    await Promise.all(
      Array.from({ length: 12 }, (_, writer) => store.replaceSession(scope, 's1', events(writer))),
    );
    const texts = (await store.list({ ...scope, limit: 100 })).map((m) => m.text);
    expect(texts).toHaveLength(5);
    const writer = /^writer (\d+)/.exec(texts[0]!)?.[1];
    expect(texts.every((text) => text.startsWith(`writer ${writer} `))).toBe(true);
  });
}
