import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { createEvent, type Event } from '../events';
import type { MemoryService } from '../memory';
import { deletionConformance } from './memory-conformance-deletion';
import { makeSession, texts } from './memory-conformance-fixtures';

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
 * import { memoryServiceConformance } from '@adk/core/testing/vitest';
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

    it('does not remember what a rewind removed (Runner.rewind)', async () => {
      const service = await makeService();
      const app = newApp();
      const session = makeSession(app, 'alice', 's1', [
        { author: 'user', text: 'I live in Porto.' },
        { author: 'user', text: 'Actually I moved to Zagreb.' },
      ]);
      const [kept, rewound] = session.events as [Event, Event];
      session.events = [kept, { ...rewound, invocationId: 'inv-2' }];
      const search = (query: string) =>
        service.searchMemory({ appName: app, userId: 'alice', query });
      // Remembered before the rewind, forgotten when the session is added again after it.
      await service.addSessionToMemory(session);
      expect(texts((await search('Zagreb')).memories)).toEqual(['Actually I moved to Zagreb.']);
      session.events = [
        ...session.events,
        createEvent({
          invocationId: 'inv-3',
          author: 'user',
          actions: { rewindBeforeInvocationId: 'inv-2' },
        }),
      ];
      await service.addSessionToMemory(session);
      expect(texts((await search('Porto')).memories)).toEqual(['I live in Porto.']);
      expect(texts((await search('Zagreb')).memories)).toEqual([]);
    });

    if (options.deletion !== false) deletionConformance(makeService, newApp);
  });
}
