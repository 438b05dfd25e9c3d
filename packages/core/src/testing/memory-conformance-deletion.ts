import { describe, expect, it } from 'vitest';

import { InvalidArgumentError } from '../errors/invalid-argument-error';
import type { DeleteMemoriesRequest, DeleteMemoriesResponse, MemoryService } from '../memory';
import { makeSession, texts } from './memory-conformance-fixtures';

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

/** The `deleteMemories` part of {@link memoryServiceConformance}. */
export function deletionConformance(
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
