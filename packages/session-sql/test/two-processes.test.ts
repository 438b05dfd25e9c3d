import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { bundledScript } from '@adk/test-databases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { SqlSessionService } from '../src';
import { testBackends } from './backends';
import type { WorkerCommand, WorkerReply } from './fixtures/append-worker';

const WORKER = await bundledScript(
  fileURLToPath(new URL('./fixtures/append-worker.ts', import.meta.url)),
);
const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A forked worker process; `ask` sends one command and waits for its reply. */
class Worker {
  readonly #child: ChildProcess;
  readonly #replies: WorkerReply[] = [];
  readonly #waiting: ((reply: WorkerReply) => void)[] = [];
  readonly ready: Promise<WorkerReply>;

  constructor(url: string, schema: string | undefined, name: string) {
    this.#child = fork(WORKER, [url, schema ?? '-', name], {
      cwd: PACKAGE_ROOT,
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.#child.on('message', (reply: WorkerReply) => {
      const waiter = this.#waiting.shift();
      if (waiter) waiter(reply);
      else this.#replies.push(reply);
    });
    this.ready = this.#next();
  }

  #next(): Promise<WorkerReply> {
    const queued = this.#replies.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      this.#waiting.push(resolve);
      this.#child.once('exit', (code) => reject(new TypeError(`worker exited with ${code}`)));
    });
  }

  async ask(command: WorkerCommand): Promise<WorkerReply> {
    const reply = this.#next();
    this.#child.send(command);
    return reply;
  }

  async stop(): Promise<void> {
    if (this.#child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.#child.once('exit', resolve));
    this.#child.send({ cmd: 'exit' } satisfies WorkerCommand);
    await exited;
  }
}

for (const backend of await testBackends()) {
  describe.skipIf(!backend.available)(`two OS processes on one database (${backend.label})`, () => {
    let service: SqlSessionService;
    let first: Worker;
    let second: Worker;

    beforeAll(async () => {
      await backend.setup();
      service = await backend.service();
      first = new Worker(backend.url, backend.schema, 'first');
      second = new Worker(backend.url, backend.schema, 'second');
      expect(await first.ready).toEqual({ ok: true });
      expect(await second.ready).toEqual({ ok: true });
    });

    afterAll(async () => {
      await Promise.all([first?.stop(), second?.stop()]);
      await service?.close();
      await backend.teardown();
    });

    it('refuses the stale writer with StaleSessionError, writes nothing for it, and accepts it after a reload', async () => {
      const key = { appName: 'procs-stale', userId: 'u', sessionId: 'shared' };
      await service.createSession(key);
      expect(await first.ask({ cmd: 'load', ...key })).toEqual({ ok: true });
      expect(await second.ask({ cmd: 'load', ...key })).toEqual({ ok: true });
      expect(await first.ask({ cmd: 'append', key: 'k1' })).toEqual({ ok: true });
      const stale = await second.ask({ cmd: 'append', key: 'k2' });
      expect(stale).toMatchObject({ ok: false, error: 'StaleSessionError' });
      let stored = await service.getSession(key);
      expect(stored?.events.map((e) => e.id)).toEqual(['first-k1']);
      expect(stored?.state).toEqual({ k1: 'first' });
      expect(await second.ask({ cmd: 'load', ...key })).toEqual({ ok: true });
      expect(await second.ask({ cmd: 'append', key: 'k2' })).toEqual({ ok: true });
      stored = await service.getSession(key);
      expect(stored?.events.map((e) => e.id)).toEqual(['first-k1', 'second-k2']);
      expect(stored?.state).toEqual({ k1: 'first', k2: 'second' });
    });

    it('stores every event of two racing processes exactly once, with consistent state', async () => {
      const key = { appName: 'procs-race', userId: 'u', sessionId: 'shared' };
      await service.createSession(key);
      const count = 30;
      const replies = await Promise.all([
        first.ask({ cmd: 'race', ...key, count }),
        second.ask({ cmd: 'race', ...key, count }),
      ]);
      for (const reply of replies) expect(reply).toMatchObject({ ok: true, events: count });
      const stored = await service.getSession(key);
      const ids = stored!.events.map((e) => e.id);
      expect(ids).toHaveLength(2 * count);
      expect(new Set(ids).size).toBe(2 * count);
      for (const name of ['first', 'second']) {
        const mine = ids.filter((id) => id.startsWith(`${name}-`));
        expect(mine).toEqual(
          Array.from({ length: count }, (_, index) => `${name}-shared-${index}`),
        );
        for (let index = 0; index < count; index++) {
          expect(stored!.state[`${name}_${index}`]).toBe(index);
          expect(stored!.state[`app:${name}_shared_${index}`]).toBe(index);
          expect(stored!.state[`user:${name}_shared_${index}`]).toBe(index);
        }
      }
      // The state is the fold of the stored events, in their stored order.
      const folded: Record<string, unknown> = {};
      for (const event of stored!.events) Object.assign(folded, event.actions.stateDelta);
      expect(stored!.state).toEqual(folded);
      console.info(
        `${backend.label}: stale retries during the race`,
        replies.map((r) => (r.ok ? r.staleRetries : r)),
      );
    });

    it('loses no app: or user: key when two processes write different sessions of one user', async () => {
      const a = { appName: 'procs-scopes', userId: 'u', sessionId: 'sa' };
      const b = { appName: 'procs-scopes', userId: 'u', sessionId: 'sb' };
      await service.createSession(a);
      await service.createSession(b);
      const count = 30;
      const replies = await Promise.all([
        first.ask({ cmd: 'race', ...a, count }),
        second.ask({ cmd: 'race', ...b, count }),
      ]);
      for (const reply of replies) expect(reply).toMatchObject({ ok: true, staleRetries: 0 });
      const fresh = await service.createSession({ appName: 'procs-scopes', userId: 'u' });
      const keys = Object.keys(fresh.state);
      expect(keys.filter((k) => k.startsWith('app:'))).toHaveLength(2 * count);
      expect(keys.filter((k) => k.startsWith('user:'))).toHaveLength(2 * count);
      const other = await service.createSession({
        appName: 'procs-scopes',
        userId: 'someone-else',
      });
      expect(Object.keys(other.state)).toHaveLength(2 * count);
    });
  });
}
