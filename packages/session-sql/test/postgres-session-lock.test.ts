import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import {
  FunctionTool,
  getText,
  LlmAgent,
  Runner,
  StaleSessionError,
  userContent,
  type Content,
  type Event,
} from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import {
  POSTGRES_URL,
  createPostgresSchema,
  dropPostgresSchema,
  postgresSchemaName,
  postgresUnavailable,
  bundledScript,
} from '@adk/test-databases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import pg from 'pg';

import { PostgresSessionLock, SessionLockClosedError, SqlSessionService } from '../src';
import { sessionLockId, waitingLockId } from '../src/lock/lock-id';

const HOLDER = await bundledScript(
  fileURLToPath(new URL('./fixtures/lock-holder.ts', import.meta.url)),
);
const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
const unavailable = await postgresUnavailable();

function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

async function drain(events: AsyncIterable<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe.skipIf(unavailable)('PostgresSessionLock on a real PostgreSQL', () => {
  const schema = postgresSchemaName();
  // Each test file's lock ids are its own: the namespace is the schema.
  const namespace = schema;
  const opened: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    await createPostgresSchema(schema);
  });

  afterAll(async () => {
    for (const item of opened.reverse()) await item.close();
    await dropPostgresSchema(schema);
  });

  async function openLock(): Promise<PostgresSessionLock> {
    const lock = await PostgresSessionLock.open({ url: POSTGRES_URL, namespace, retryMs: 200 });
    opened.push(lock);
    return lock;
  }

  /** One "instance": its own pool, session service and lock, and a Runner over them. */
  async function instance(
    agent: LlmAgent,
    withLock: boolean,
  ): Promise<{ runner: Runner; sessions: SqlSessionService }> {
    const sessions = await SqlSessionService.fromUrl(POSTGRES_URL, {
      schema,
      autoMigrate: true,
      poolSize: 2,
    });
    opened.push(sessions);
    const sessionLock = withLock ? await openLock() : undefined;
    const runner = new Runner({
      appName: 'locks',
      agent,
      sessionService: sessions,
      autoCreateSession: true,
      ...(sessionLock ? { sessionLock } : {}),
    });
    return { runner, sessions };
  }

  /** An agent whose every turn calls `hold`; the call named `first` waits for the gate. */
  function holdingAgent() {
    const held = gate();
    const entered: string[] = [];
    const hold = new FunctionTool({
      name: 'hold',
      description: 'Waits until released.',
      parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      execute: async ({ name }: { name: string }) => {
        entered.push(name);
        if (name === 'first') await held.opened;
        return { released: name };
      },
    });
    const model = new FakeModel({
      responses: (request) => {
        const last = request.contents.at(-1) as Content;
        const response = last.parts.find((part) => part.functionResponse)?.functionResponse;
        if (response) return `done ${(response.response as { released: string }).released}`;
        const text = last.parts.map((part) => part.text ?? '').join('');
        return { functionCalls: [{ name: 'hold', args: { name: text } }] };
      },
    });
    return { agent: new LlmAgent({ name: 'agent', model, tools: [hold] }), held, entered };
  }

  const turn = (runner: Runner, sessionId: string, text: string) =>
    drain(runner.run({ userId: 'u', sessionId, newMessage: userContent(text) }));

  it('without a lock, two instances on one session fail one turn with StaleSessionError', async () => {
    const { agent, held, entered } = holdingAgent();
    const a = await instance(agent, false);
    const b = await instance(agent, false);
    const first = turn(a.runner, 'no-lock', 'first');
    await expect.poll(() => entered).toEqual(['first']);
    await turn(b.runner, 'no-lock', 'second');
    held.open();
    await expect(first).rejects.toBeInstanceOf(StaleSessionError);
  });

  it('with PostgresSessionLock, turns on one session from two instances run one at a time, stored in order', async () => {
    const { agent, held, entered } = holdingAgent();
    const a = await instance(agent, true);
    const b = await instance(agent, true);
    const first = turn(a.runner, 'locked', 'first');
    await expect.poll(() => entered).toEqual(['first']);
    const second = turn(b.runner, 'locked', 'second');
    // b waits for a's lock: its turn has not stored its message nor called its tool.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(entered).toEqual(['first']);
    const midway = await a.sessions.getSession({
      appName: 'locks',
      userId: 'u',
      sessionId: 'locked',
    });
    expect(midway?.events.filter((event) => event.author === 'user')).toHaveLength(1);
    held.open();
    expect((await first).at(-1)?.content?.parts[0]?.text).toBe('done first');
    expect((await second).at(-1)?.content?.parts[0]?.text).toBe('done second');
    const stored = await b.sessions.getSession({
      appName: 'locks',
      userId: 'u',
      sessionId: 'locked',
    });
    expect(
      stored?.events.map((event) =>
        event.author === 'user' ? `user: ${getText(event.content)}` : event.author,
      ),
    ).toEqual([
      'user: first',
      'agent',
      'agent',
      'agent',
      'user: second',
      'agent',
      'agent',
      'agent',
    ]);
  });

  it('frees the lock of a process killed while holding it', async () => {
    const child = fork(HOLDER, [POSTGRES_URL, namespace, 'killed'], {
      cwd: PACKAGE_ROOT,
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new TypeError(`holder exited with ${code}`)));
    });
    const lock = await openLock();
    let acquired = false;
    const waiting = lock
      .acquire({ appName: 'locks', userId: 'u', sessionId: 'killed' })
      .then((release) => {
        acquired = true;
        return release;
      });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(acquired).toBe(false);
    child.kill('SIGKILL');
    await exited;
    const release = await waiting;
    expect(release).toBeTypeOf('function');
    await release?.();
  });

  it('serializes turns inside one process too, and gives up when the signal aborts', async () => {
    const lock = await openLock();
    const other = await openLock();
    const key = { appName: 'locks', userId: 'u', sessionId: 'local' };
    const release = await lock.acquire(key);
    let second = false;
    const next = lock.acquire(key).then((r) => {
      second = true;
      return r;
    });
    const controller = new AbortController();
    const elsewhere = other.acquire(key, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(second).toBe(false);
    controller.abort();
    expect(await elsewhere).toBeUndefined();
    await release?.();
    const releaseNext = await next;
    expect(second).toBe(true);
    await releaseNext?.();
    // Free again: the other process takes it at once.
    const again = await other.acquire(key);
    await again?.();
  });

  it('hands the lock to a waiting process by notice, and sends no notice when nobody waits', async () => {
    // A private channel, listened to by the test: every notice the locks send is seen here.
    const channel = `adk_lock_test_${schema}`;
    const listener = new pg.Client({ connectionString: POSTGRES_URL });
    await listener.connect();
    const notices: string[] = [];
    let noticed: () => void = () => undefined;
    listener.on('notification', (message) => {
      notices.push(message.payload ?? '');
      noticed();
    });
    await listener.query(`LISTEN "${channel}"`);
    try {
      // A retry period far beyond the test's timeout: only a notice wakes the waiting process.
      const options = { url: POSTGRES_URL, namespace, channel, retryMs: 600_000 };
      const first = await PostgresSessionLock.open(options);
      const second = await PostgresSessionLock.open(options);
      opened.push(first, second);
      const key = { appName: 'locks', userId: 'u', sessionId: 'notice' };
      for (let turn = 0; turn < 3; turn++) await (await first.acquire(key))?.();
      const release = await first.acquire(key);
      const waiting = second.acquire(key);
      // Wait until the second process marks that it waits (its shared waiting lock is granted).
      const marker = BigInt.asUintN(64, BigInt(waitingLockId(sessionLockId(namespace, key))));
      const waitingMarks = async () => {
        const { rows } = await listener.query<{ n: string }>(
          `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND mode = 'ShareLock'
             AND granted AND classid = $1::bigint::oid AND objid = $2::bigint::oid AND objsubid = 1`,
          [(marker >> 32n).toString(), (marker & 0xffffffffn).toString()],
        );
        return Number(rows[0]?.n);
      };
      while ((await waitingMarks()) !== 1) await new Promise((resolve) => setTimeout(resolve, 10));
      const arrived = new Promise<void>((resolve) => (noticed = resolve));
      await release?.();
      const handed = await waiting;
      expect(handed).toBeTypeOf('function');
      await arrived;
      // Notices arrive in commit order: one for the hand-off, none for the three free releases.
      expect(notices).toEqual([sessionLockId(namespace, key)]);
      await handed?.();
      // The waiting mark is gone once the lock is held: releasing now needs no notice.
      await (
        await first.acquire(key)
      )?.();
      // Only this key's marker: the other packages' tests share the server's lock table.
      expect(await waitingMarks()).toBe(0);
    } finally {
      await listener.end();
    }
  });

  it('refuses to lock after close with SessionLockClosedError', async () => {
    const lock = await openLock();
    await lock.close();
    const error = await lock
      .acquire({ appName: 'locks', userId: 'u', sessionId: 'closed' })
      .catch((e: unknown) => e);
    expect(SessionLockClosedError.isInstance(error)).toBe(true);
    expect((error as SessionLockClosedError).code).toBe('SESSION_LOCK_CLOSED');
  });
});
