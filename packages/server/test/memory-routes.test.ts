import { InMemorySessionService, modelContent } from '@adk/core';
import { InMemoryMemoryService, InMemoryVectorStore, SemanticMemoryService } from '@adk/memory';
import { ConceptEmbeddingModel } from '@adk/memory/testing';
import { afterEach, describe, expect, it } from 'vitest';

import { createAdkServer, listen, type RunningServer } from '../src';
import { scriptedRunner, sseFrames, weatherTree } from './helpers';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(
  memoryService: InMemoryMemoryService | SemanticMemoryService,
  memoryWatchIntervalMs?: number,
) {
  const sessionService = new InMemorySessionService();
  const runner = scriptedRunner(sessionService, 'weather', 'router', async function* (_r, emit) {
    yield emit({ content: modelContent('Noted.') });
  });
  server = await listen(
    createAdkServer({
      apps: { weather: { agent: weatherTree, runner } },
      sessionService,
      memoryService,
      ...(memoryWatchIntervalMs ? { memoryWatchIntervalMs } : {}),
    }),
    { port: 0 },
  );
  return server.url;
}

describe('memory routes', () => {
  it("lists a user's memories newest first and deletes one, then all", async () => {
    const memory = new SemanticMemoryService({
      store: new InMemoryVectorStore(),
      embedder: new ConceptEmbeddingModel(),
    });
    const scope = { appName: 'weather', userId: 'u1' };
    const [tea] = await memory.addFacts(scope, [{ text: 'Drinks tea', timestamp: 1000 }]);
    await memory.addFacts(scope, [{ text: 'Has a dog', timestamp: 2000 }]);
    await memory.addFacts({ appName: 'weather', userId: 'u2' }, [{ text: 'Someone else' }]);
    const base = await start(memory);
    const list = async () =>
      (await (await fetch(`${base}/apps/weather/users/u1/memories`)).json()) as {
        memories: { id: string; text: string }[];
      };
    const listed = await list();
    expect(listed.memories.map((m) => m.text)).toEqual(['Has a dog', 'Drinks tea']);
    expect(listed.memories[0]).toMatchObject({
      kind: 'fact',
      author: 'memory',
      embedding_model: 'concept-256',
    });
    expect((await fetch(`${base}/apps/weather/users/u1/memories?limit=-1`)).status).toBe(400);

    const one = await fetch(`${base}/apps/weather/users/u1/memories/${tea!.id}`, {
      method: 'DELETE',
    });
    expect(await one.json()).toEqual({ deleted_count: 1 });
    expect((await list()).memories.map((m) => m.text)).toEqual(['Has a dog']);
    // Another user's id through this user's path is not found, and not deleted.
    const [other] = await memory.listMemories({ appName: 'weather', userId: 'u2' });
    expect(
      (await fetch(`${base}/apps/weather/users/u1/memories/${other!.id}`, { method: 'DELETE' }))
        .status,
    ).toBe(404);

    const all = await fetch(`${base}/apps/weather/users/u1/memories`, { method: 'DELETE' });
    expect(await all.json()).toEqual({ deleted_count: 1 });
    expect((await list()).memories).toEqual([]);
    expect(
      (await memory.listMemories({ appName: 'weather', userId: 'u2' })).map((m) => m.text),
    ).toEqual(['Someone else']);
  });

  it('streams the list, then each memory added or removed, by whoever', async () => {
    const memory = new SemanticMemoryService({
      store: new InMemoryVectorStore(),
      embedder: new ConceptEmbeddingModel(),
    });
    const scope = { appName: 'weather', userId: 'u1' };
    await memory.addFacts(scope, [{ text: 'Drinks tea', timestamp: 1000 }]);
    const base = await start(memory, 50);
    const controller = new AbortController();
    const response = await fetch(`${base}/apps/weather/users/u1/memories/stream`, {
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const frames = sseFrames(response);
    type Frame = { reset: boolean; memories: { id: string; text: string }[]; removed: string[] };
    const next = async () => (await frames.next()).value as Frame;
    const first = await next();
    expect(first.reset).toBe(true);
    expect(first.memories.map((m) => m.text)).toEqual(['Drinks tea']);
    // As a background extraction would: straight into the service, not through a route.
    const [dog] = await memory.addFacts(scope, [{ text: 'Has a dog', timestamp: 2000 }]);
    await memory.addFacts({ appName: 'weather', userId: 'u2' }, [{ text: 'Someone else' }]);
    const added = await next();
    expect(added).toMatchObject({ reset: false, removed: [] });
    expect(added.memories.map((m) => m.text)).toEqual(['Has a dog']);
    await fetch(`${base}/apps/weather/users/u1/memories/${dog!.id}`, { method: 'DELETE' });
    expect(await next()).toEqual({ reset: false, memories: [], removed: [dog!.id] });
    controller.abort();
    await server?.close();
    const unlistable = await start(new InMemoryMemoryService());
    expect((await fetch(`${unlistable}/apps/weather/users/u1/memories/stream`)).status).toBe(501);
  });

  it('says clearly when the memory service cannot list', async () => {
    const base = await start(new InMemoryMemoryService());
    const response = await fetch(`${base}/apps/weather/users/u1/memories`);
    expect(response.status).toBe(501);
    expect(JSON.stringify(await response.json())).toContain('cannot list');
    // Deleting everything works with any service that can delete.
    const all = await fetch(`${base}/apps/weather/users/u1/memories`, { method: 'DELETE' });
    expect(await all.json()).toEqual({ deleted_count: 0 });
  });
});
