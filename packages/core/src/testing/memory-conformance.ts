import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import type { Content } from '../content';
import { InvalidArgumentError } from '../errors/invalid-argument-error';
import { createEvent, type Event } from '../events';
import type { DeleteMemoriesRequest, DeleteMemoriesResponse, MemoryService } from '../memory';
import type { Session } from '../sessions';

interface Said {
  author: string;
  text?: string;
  content?: Content;
  partial?: boolean;
  timestamp?: number;
}

function makeSession(appName: string, userId: string, id: string, said: Said[]): Session {
  let clock = 1_700_000_000_000;
  const events: Event[] = said.map((s) => {
    clock += 1000;
    return createEvent({
      invocationId: 'inv-1',
      author: s.author,
      timestamp: s.timestamp ?? clock,
      partial: s.partial,
      content: s.content ?? {
        role: s.author === 'user' ? 'user' : 'model',
        parts: [{ text: s.text ?? '' }],
      },
    });
  });
  return { id, appName, userId, state: {}, events, lastUpdateTime: clock };
}

function texts(memories: { content: Content }[]): string[] {
  return memories.map((m) => m.content.parts.map((p) => p.text ?? '').join(''));
}

/** Options of {@link memoryServiceConformance}. */
export interface MemoryServiceConformanceOptions {
  /**
   * Check `deleteMemories` (default `true`). A service that deliberately cannot delete (the method
   * is optional in the contract) passes `false`; otherwise a missing method fails the suite.
   */
  deletion?: boolean;
}

/**
 * The memory-service contract as a vitest suite. Run it against every implementation:
 *
 * @example
 * ```ts
 * import { memoryServiceConformance } from '@adk/core/testing';
 * memoryServiceConformance('InMemoryMemoryService', () => new InMemoryMemoryService());
 * ```
 *
 * `makeService` is called once per test; every test uses its own random app name. Queries use
 * whole words only, so services that stem words (SQL full-text search) pass the same tests.
 */
export function memoryServiceConformance(
  label: string,
  makeService: () => Promise<MemoryService> | MemoryService,
  options: MemoryServiceConformanceOptions = {},
): void {
  describe(`MemoryService conformance: ${label}`, () => {
    const newApp = () => `app-${randomUUID()}`;

    it('finds a remembered event by one of its words, with author, time and session', async () => {
      const service = await makeService();
      const app = newApp();
      const session = makeSession(app, 'alice', 's1', [
        { author: 'user', text: 'My favourite city is Lisbon.', timestamp: 1_700_000_001_000 },
        {
          author: 'assistant',
          text: 'Noted, you like the ocean breeze.',
          timestamp: 1_700_000_002_000,
        },
      ]);
      await service.addSessionToMemory(session);
      const { memories } = await service.searchMemory({
        appName: app,
        userId: 'alice',
        query: 'which city?',
      });
      expect(texts(memories)).toEqual(['My favourite city is Lisbon.']);
      expect(memories[0]).toMatchObject({
        author: 'user',
        timestamp: 1_700_000_001_000,
        sessionId: 's1',
      });
      expect(memories[0]?.content.role).toBe('user');
    });

    it('matches words case-insensitively', async () => {
      const service = await makeService();
      const app = newApp();
      await service.addSessionToMemory(
        makeSession(app, 'alice', 's1', [{ author: 'user', text: 'I adopted a dog named Pixel' }]),
      );
      const upper = await service.searchMemory({ appName: app, userId: 'alice', query: 'PIXEL' });
      const lower = await service.searchMemory({ appName: app, userId: 'alice', query: 'pixel' });
      expect(texts(upper.memories)).toEqual(['I adopted a dog named Pixel']);
      expect(texts(lower.memories)).toEqual(['I adopted a dog named Pixel']);
    });

    it('returns nothing when no word matches, and for a query without words', async () => {
      const service = await makeService();
      const app = newApp();
      await service.addSessionToMemory(
        makeSession(app, 'alice', 's1', [
          { author: 'user', text: 'The meeting moved to Thursday' },
        ]),
      );
      for (const query of ['bicycle', '', '   ', '?!., ;']) {
        expect(
          (await service.searchMemory({ appName: app, userId: 'alice', query })).memories,
        ).toEqual([]);
      }
    });

    it('never returns memories of another user or another app', async () => {
      const service = await makeService();
      const app = newApp();
      const otherApp = newApp();
      await service.addSessionToMemory(
        makeSession(app, 'alice', 's1', [{ author: 'user', text: 'alice secret: walnut' }]),
      );
      await service.addSessionToMemory(
        makeSession(app, 'bob', 's1', [{ author: 'user', text: 'bob secret: walnut' }]),
      );
      await service.addSessionToMemory(
        makeSession(otherApp, 'alice', 's1', [
          { author: 'user', text: 'other app secret: walnut' },
        ]),
      );
      expect(
        texts(
          (await service.searchMemory({ appName: app, userId: 'alice', query: 'walnut' })).memories,
        ),
      ).toEqual(['alice secret: walnut']);
      expect(
        texts(
          (await service.searchMemory({ appName: app, userId: 'bob', query: 'walnut' })).memories,
        ),
      ).toEqual(['bob secret: walnut']);
      expect(
        texts(
          (await service.searchMemory({ appName: otherApp, userId: 'alice', query: 'walnut' }))
            .memories,
        ),
      ).toEqual(['other app secret: walnut']);
      expect(
        (await service.searchMemory({ appName: app, userId: 'carol', query: 'walnut' })).memories,
      ).toEqual([]);
    });

    it('is idempotent per session: re-adding refreshes without duplicates', async () => {
      const service = await makeService();
      const app = newApp();
      const session = makeSession(app, 'alice', 's1', [
        { author: 'user', text: 'Plan the trip to Kyoto' },
      ]);
      await service.addSessionToMemory(session);
      await service.addSessionToMemory(session);
      const grown = makeSession(app, 'alice', 's1', [
        { author: 'user', text: 'Plan the trip to Kyoto' },
        { author: 'planner', text: 'Kyoto trip booked for April' },
      ]);
      await service.addSessionToMemory(grown);
      const { memories } = await service.searchMemory({
        appName: app,
        userId: 'alice',
        query: 'kyoto',
      });
      expect(texts(memories).sort()).toEqual([
        'Kyoto trip booked for April',
        'Plan the trip to Kyoto',
      ]);
    });

    it('searches across every session of the user', async () => {
      const service = await makeService();
      const app = newApp();
      await service.addSessionToMemory(
        makeSession(app, 'alice', 's1', [{ author: 'user', text: 'Allergic to peanuts' }]),
      );
      await service.addSessionToMemory(
        makeSession(app, 'alice', 's2', [{ author: 'user', text: 'Peanuts are in the satay' }]),
      );
      const { memories } = await service.searchMemory({
        appName: app,
        userId: 'alice',
        query: 'peanuts',
      });
      expect(memories.map((m) => m.sessionId).sort()).toEqual(['s1', 's2']);
    });

    it('skips events without text, thoughts and partial chunks', async () => {
      const service = await makeService();
      const app = newApp();
      await service.addSessionToMemory(
        makeSession(app, 'alice', 's1', [
          {
            author: 'agent',
            content: {
              role: 'model',
              parts: [{ functionCall: { name: 'lookup_zebra', args: { q: 'zebra' } } }],
            },
          },
          {
            author: 'agent',
            content: { role: 'model', parts: [{ text: 'thinking about zebra', thought: true }] },
          },
          { author: 'agent', text: 'zebra streaming chunk', partial: true },
          { author: 'agent', text: 'A zebra has stripes' },
        ]),
      );
      const { memories } = await service.searchMemory({
        appName: app,
        userId: 'alice',
        query: 'zebra',
      });
      expect(texts(memories)).toEqual(['A zebra has stripes']);
    });

    it('ranks an entry matching more query words first and honours the limit', async () => {
      const service = await makeService();
      const app = newApp();
      await service.addSessionToMemory(
        makeSession(app, 'alice', 's1', [
          { author: 'user', text: 'the garden needs water today' },
          { author: 'user', text: 'the tomato plants look great' },
          { author: 'user', text: 'water the tomato plants daily' },
          { author: 'user', text: 'buy more garden soil soon' },
        ]),
      );
      const { memories } = await service.searchMemory({
        appName: app,
        userId: 'alice',
        query: 'tomato water',
      });
      expect(texts(memories)[0]).toBe('water the tomato plants daily');
      expect(texts(memories).sort()).toEqual(
        [
          'the garden needs water today',
          'the tomato plants look great',
          'water the tomato plants daily',
        ].sort(),
      );
      const limited = await service.searchMemory({
        appName: app,
        userId: 'alice',
        query: 'tomato water garden',
        limit: 2,
      });
      expect(limited.memories).toHaveLength(2);
    });

    it('treats query syntax as plain words and never fails on it', async () => {
      const service = await makeService();
      const app = newApp();
      await service.addSessionToMemory(
        makeSession(app, 'alice', 's1', [{ author: 'user', text: 'Order the blue notebook' }]),
      );
      for (const query of [
        '"notebook',
        'notebook*',
        'notebook AND (',
        "notebook' OR 1=1 --",
        'NEAR(notebook)',
        'notebook & | ! :*',
      ]) {
        const { memories } = await service.searchMemory({ appName: app, userId: 'alice', query });
        expect(texts(memories), query).toEqual(['Order the blue notebook']);
      }
    });

    it('returns copies: changing a result does not change what is remembered', async () => {
      const service = await makeService();
      const app = newApp();
      await service.addSessionToMemory(
        makeSession(app, 'alice', 's1', [{ author: 'user', text: 'Remember the violet door' }]),
      );
      const first = await service.searchMemory({ appName: app, userId: 'alice', query: 'violet' });
      first.memories[0]!.content.parts[0]!.text = 'tampered';
      const second = await service.searchMemory({ appName: app, userId: 'alice', query: 'violet' });
      expect(texts(second.memories)).toEqual(['Remember the violet door']);
    });

    if (options.deletion !== false) deletionConformance(makeService, newApp);
  });
}

/** `deleteMemories` of `service`, failing the test clearly when the service has none. */
function deleter(
  service: MemoryService,
): (request: DeleteMemoriesRequest) => Promise<DeleteMemoriesResponse> {
  if (typeof service.deleteMemories !== 'function') {
    throw new TypeError(
      'deleteMemories is not implemented; pass { deletion: false } to memoryServiceConformance if this service cannot delete.',
    );
  }
  return (request) => service.deleteMemories!(request);
}

function deletionConformance(
  makeService: () => Promise<MemoryService> | MemoryService,
  newApp: () => string,
): void {
  /** Alice has two sessions in `app` and one in `otherApp`; Bob has a session `s1` in `app`. */
  async function remembered(service: MemoryService, app: string, otherApp: string) {
    await service.addSessionToMemory(
      makeSession(app, 'alice', 's1', [
        { author: 'user', text: 'alice walnut one' },
        { author: 'assistant', text: 'alice walnut two' },
      ]),
    );
    await service.addSessionToMemory(
      makeSession(app, 'alice', 's2', [{ author: 'user', text: 'alice walnut three' }]),
    );
    await service.addSessionToMemory(
      makeSession(app, 'bob', 's1', [{ author: 'user', text: 'bob walnut' }]),
    );
    await service.addSessionToMemory(
      makeSession(otherApp, 'alice', 's1', [{ author: 'user', text: 'other app walnut' }]),
    );
  }
  const found = async (service: MemoryService, appName: string, userId: string) =>
    texts(
      (await service.searchMemory({ appName, userId, query: 'walnut', limit: 50 })).memories,
    ).sort();

  describe('deleteMemories', () => {
    it("forgets every memory of one user in one app, and nobody else's", async () => {
      const service = await makeService();
      const [app, otherApp] = [newApp(), newApp()];
      await remembered(service, app, otherApp);
      expect(await deleter(service)({ appName: app, userId: 'alice' })).toEqual({
        deletedCount: 3,
      });
      expect(await found(service, app, 'alice')).toEqual([]);
      expect(await found(service, app, 'bob')).toEqual(['bob walnut']);
      expect(await found(service, otherApp, 'alice')).toEqual(['other app walnut']);
    });

    it("forgets one session of one user only (not another user's session of the same id)", async () => {
      const service = await makeService();
      const [app, otherApp] = [newApp(), newApp()];
      await remembered(service, app, otherApp);
      expect(await deleter(service)({ appName: app, userId: 'alice', sessionId: 's1' })).toEqual({
        deletedCount: 2,
      });
      const { memories } = await service.searchMemory({
        appName: app,
        userId: 'alice',
        query: 'walnut',
      });
      expect(texts(memories)).toEqual(['alice walnut three']);
      expect(memories.map((m) => m.sessionId)).toEqual(['s2']);
      expect(await found(service, app, 'bob')).toEqual(['bob walnut']);
      expect(await found(service, otherApp, 'alice')).toEqual(['other app walnut']);
    });

    it('deleting what is not there is a no-op with deletedCount 0', async () => {
      const service = await makeService();
      const [app, otherApp] = [newApp(), newApp()];
      await remembered(service, app, otherApp);
      const remove = deleter(service);
      expect(await remove({ appName: app, userId: 'carol' })).toEqual({ deletedCount: 0 });
      expect(await remove({ appName: app, userId: 'alice', sessionId: 'nope' })).toEqual({
        deletedCount: 0,
      });
      expect(await remove({ appName: newApp(), userId: 'alice' })).toEqual({ deletedCount: 0 });
      await remove({ appName: app, userId: 'alice', sessionId: 's2' });
      expect(await remove({ appName: app, userId: 'alice', sessionId: 's2' })).toEqual({
        deletedCount: 0,
      });
      expect(await found(service, app, 'alice')).toEqual(['alice walnut one', 'alice walnut two']);
    });

    it('remembers a forgotten session again when it is added again, without the others', async () => {
      const service = await makeService();
      const [app, otherApp] = [newApp(), newApp()];
      await remembered(service, app, otherApp);
      await deleter(service)({ appName: app, userId: 'alice' });
      await service.addSessionToMemory(
        makeSession(app, 'alice', 's2', [{ author: 'user', text: 'alice walnut again' }]),
      );
      expect(await found(service, app, 'alice')).toEqual(['alice walnut again']);
    });

    it('refuses a request without an app or a user with InvalidArgumentError, deleting nothing', async () => {
      const service = await makeService();
      const [app, otherApp] = [newApp(), newApp()];
      await remembered(service, app, otherApp);
      const remove = deleter(service);
      const bad = [
        { appName: app, userId: '' },
        { appName: '', userId: 'alice' },
        { appName: app, userId: undefined },
        { appName: app },
        { appName: app, userId: 'alice', sessionId: '' },
        { appName: app, userId: 'alice', sessionId: 42 },
      ] as unknown as DeleteMemoriesRequest[];
      for (const request of bad) {
        const error = await remove(request).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(InvalidArgumentError.isInstance(error), JSON.stringify(request)).toBe(true);
      }
      expect(await found(service, app, 'alice')).toEqual([
        'alice walnut one',
        'alice walnut three',
        'alice walnut two',
      ]);
    });
  });
}
