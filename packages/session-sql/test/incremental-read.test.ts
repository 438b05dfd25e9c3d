import { createEvent, modelContent, type Event } from '@adk/core';
import type { KyselyPlugin, PluginTransformResultArgs, QueryResult, UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { SqlSessionService } from '../src';
import { testBackends } from './backends';

/** Counts the rows every statement returns (the cost of a read grows with them). */
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

const APP = 'incremental';

function turnEvent(index: number): Event {
  return createEvent({
    invocationId: `inv-${Math.floor(index / 4)}`,
    author: index % 2 === 0 ? 'user' : 'agent',
    content: modelContent(`event ${index}`),
    actions: { stateDelta: { step: index, ...(index % 5 === 0 ? { 'user:seen': index } : {}) } },
  });
}

for (const backend of await testBackends()) {
  describe.skipIf(!backend.available)(
    `getSession reads only what changed (${backend.label})`,
    () => {
      const counter = new RowCounter();
      let service: SqlSessionService;
      let other: SqlSessionService;

      beforeAll(async () => {
        await backend.setup();
        service = await backend.service([counter]);
        other = await backend.service();
      });
      afterAll(async () => {
        await service?.close();
        await other?.close();
        await backend.teardown();
      });

      const get = (svc: SqlSessionService, sessionId: string) =>
        svc.getSession({ appName: APP, userId: 'u', sessionId });

      it('reads a constant number of rows per turn, whatever the session length', async () => {
        let session = await service.createSession({ appName: APP, userId: 'u', sessionId: 'long' });
        const rowsPerRead: number[] = [];
        for (let turn = 0; turn < 60; turn++) {
          for (let index = 0; index < 4; index++)
            await service.appendEvent({ session, event: turnEvent(turn * 4 + index) });
          counter.rows = 0;
          session = (await get(service, 'long'))!;
          rowsPerRead.push(counter.rows);
          expect(session.events).toHaveLength((turn + 1) * 4);
        }
        // The first read loads everything; each later one the turn's four events and the session row.
        expect(rowsPerRead.slice(1).every((rows) => rows <= 6)).toBe(true);
        expect(session.events.map((event) => event.content?.parts?.[0]?.text)).toEqual(
          Array.from({ length: 240 }, (_, index) => `event ${index}`),
        );
        // Identical to a read from scratch, state included.
        const fresh = await get(other, 'long');
        expect(session).toEqual(fresh);
      });

      it('hands back the very event objects a runner appended, reading no event again', async () => {
        await service.createSession({ appName: APP, userId: 'u', sessionId: 'same' });
        let session = (await get(service, 'same'))!;
        for (let turn = 0; turn < 3; turn++) {
          for (let index = 0; index < 4; index++)
            await service.appendEvent({ session, event: turnEvent(turn * 4 + index) });
          const held = session.events;
          counter.rows = 0;
          session = (await get(service, 'same'))!;
          // The session's row (and, on SQLite, the check that the last event read is still there),
          // no event row: the events are the stored objects the appends returned, so what was
          // built from them (the model request's contents) can be reused as it is.
          expect(counter.rows).toBeLessThanOrEqual(2);
          expect(session.events).toHaveLength(held.length);
          expect(session.events.every((event, index) => event === held[index])).toBe(true);
        }
      });

      it('sees what another process appended, and its shared state changes', async () => {
        const mine = await service.createSession({
          appName: APP,
          userId: 'u',
          sessionId: 'shared',
        });
        await service.appendEvent({ session: mine, event: turnEvent(1) });
        await get(service, 'shared');
        const theirs = (await get(other, 'shared'))!;
        await other.appendEvent({ session: theirs, event: turnEvent(5) });
        const sibling = await other.createSession({ appName: APP, userId: 'u' });
        await other.appendEvent({
          session: sibling,
          event: createEvent({
            invocationId: 'x',
            author: 'agent',
            actions: { stateDelta: { 'user:seen': 'elsewhere' } },
          }),
        });
        const reread = (await get(service, 'shared'))!;
        expect(reread.events.map((event) => event.id)).toEqual(
          theirs.events.map((event) => event.id),
        );
        expect(reread.state).toEqual({ step: 5, 'user:seen': 'elsewhere' });
        expect(reread.lastUpdateTime).toBe(theirs.lastUpdateTime);
      });

      it('never hands back events of a session deleted and created again under its id', async () => {
        const first = await service.createSession({
          appName: APP,
          userId: 'u',
          sessionId: 'again',
        });
        for (let index = 0; index < 3; index++)
          await service.appendEvent({ session: first, event: turnEvent(index) });
        expect((await get(service, 'again'))!.events).toHaveLength(3);
        // Deleted and created again by another process, within the same millisecond or not.
        await other.deleteSession({ appName: APP, userId: 'u', sessionId: 'again' });
        const second = await other.createSession({ appName: APP, userId: 'u', sessionId: 'again' });
        await other.appendEvent({ session: second, event: turnEvent(7) });
        const reread = (await get(service, 'again'))!;
        expect(reread.events.map((event) => event.content?.parts?.[0]?.text)).toEqual(['event 7']);
        expect(reread.state.step).toBe(7);
        await other.deleteSession({ appName: APP, userId: 'u', sessionId: 'again' });
        expect(await get(service, 'again')).toBeUndefined();
      });

      it('hands out an events array of the caller’s own: changing it changes no later read', async () => {
        const session = await service.createSession({
          appName: APP,
          userId: 'u',
          sessionId: 'own',
        });
        await service.appendEvent({ session, event: turnEvent(0) });
        const read = (await get(service, 'own'))!;
        read.events.push(turnEvent(99));
        read.events.shift();
        expect((await get(service, 'own'))!.events.map((event) => event.id)).toEqual(
          session.events.map((event) => event.id),
        );
      });

      it('keeps the stale rule: a Session read before another append is refused', async () => {
        const session = await service.createSession({
          appName: APP,
          userId: 'u',
          sessionId: 'stale',
        });
        const early = (await get(service, 'stale'))!;
        await service.appendEvent({ session, event: turnEvent(0) });
        const late = (await get(service, 'stale'))!;
        await expect(
          service.appendEvent({ session: early, event: turnEvent(1) }),
        ).rejects.toMatchObject({
          name: 'StaleSessionError',
        });
        await expect(
          service.appendEvent({ session: late, event: turnEvent(2) }),
        ).resolves.toBeDefined();
      });
    },
  );
}
