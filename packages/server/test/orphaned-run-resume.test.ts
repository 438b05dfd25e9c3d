/**
 * A `/run_sse` run whose instance died mid-turn, on real PostgreSQL sessions with the
 * PostgreSQL session lock: a client reconnecting with `Last-Event-ID` to another instance gets
 * the invocation continued there (`runner.resume`), once, however many reconnect at once.
 */
import { createConnection } from 'node:net';

import { FunctionTool, getText, LlmAgent, Runner, type Content } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { PostgresSessionLock, SqlSessionService } from '@adk/session-sql';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAdkServer, listen, type RunningServer } from '../src';
import { sseFramesWithIds } from './helpers';

const POSTGRES_URL = process.env.ADK_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 5432) });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

const available = await reachable(POSTGRES_URL);
if (!available && process.env.CI === 'true')
  throw new TypeError(`PostgreSQL is needed at ${POSTGRES_URL} under CI=true`);

const schema = `adk_orphan_${process.pid}_${Date.now().toString(36)}`;
const closers: Array<() => Promise<void>> = [];
/**
 * The locks' connections carry the schema as their application name, so that the test counts only
 * its own advisory locks: the other packages' tests share the server's lock table.
 */
const LOCK_URL = (() => {
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('application_name', schema);
  return url.toString();
})();

/** A gate the dead instance's tool waits on forever (opened only when the test is over). */
let openGate: () => void = () => undefined;
const gate = new Promise<void>((resolve) => (openGate = resolve));

/**
 * One instance: its own pool, lock, agent and server; `runs` counts its tool executions, which
 * wait for `blockOn` when given.
 */
async function instance(blockOn?: Promise<void>) {
  const sessions = await SqlSessionService.fromUrl(POSTGRES_URL, { schema, poolSize: 2 });
  const sessionLock = await PostgresSessionLock.open({
    url: LOCK_URL,
    namespace: schema,
    retryMs: 200,
  });
  const runs: string[] = [];
  const lookup = new FunctionTool({
    name: 'lookup',
    description: 'Looks something up (safe to run twice).',
    isIdempotent: true,
    parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    execute: async ({ q }: { q: string }) => {
      runs.push(q);
      if (blockOn) await blockOn;
      return { found: q.toUpperCase() };
    },
  });
  const model = new FakeModel({
    responses: (request) => {
      const last = request.contents.at(-1) as Content;
      const result = last.parts.find((part) => part.functionResponse)?.functionResponse;
      if (result) return `answer ${(result.response as { found: string }).found}`;
      return { functionCalls: [{ name: 'lookup', args: { q: getText(last) } }] };
    },
  });
  const runner = new Runner({
    appName: 'orphans',
    agent: new LlmAgent({ name: 'agent', model, tools: [lookup] }),
    sessionService: sessions,
    sessionLock,
  });
  const app = createAdkServer({
    apps: { orphans: { agent: runner.agent, runner } },
    sessionService: sessions,
    sseKeepAliveMs: 0,
    resumePollMs: 50,
  });
  const server = await listen(app, { port: 0 });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await server.close();
    await sessionLock.close();
    await sessions.close();
  };
  closers.push(close);
  return { server, sessions, sessionLock, runs, close };
}

const post = (server: RunningServer, payload: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/run_sse`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(payload),
  });

/**
 * Start a `/run_sse` turn on `server` and read its stream up to the tool call: the id of the last
 * frame read, and how to drop the connection (the client going away).
 */
async function readUntilToolCall(
  { server }: { server: RunningServer },
  payload: unknown,
): Promise<{ lastId: string; disconnect: () => void }> {
  const controller = new AbortController();
  const response = await fetch(`${server.url}/run_sse`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
    signal: controller.signal,
  });
  let lastId: string | undefined;
  for await (const frame of sseFramesWithIds(response)) {
    lastId = frame.id;
    const content = frame.value.content as Content | undefined;
    if (content?.parts.some((part) => part.functionCall)) break;
  }
  expect(lastId).toBeDefined();
  return { lastId: lastId!, disconnect: () => controller.abort() };
}

describe.skipIf(!available)('a run whose instance died, reconnected to on PostgreSQL', () => {
  beforeAll(async () => {
    const admin = await SqlSessionService.fromUrl(POSTGRES_URL);
    await sql`create schema ${sql.id(schema)}`.execute(admin.database);
    await admin.close();
    const migrating = await SqlSessionService.fromUrl(POSTGRES_URL, { schema });
    await migrating.migrate();
    await migrating.close();
  });

  afterAll(async () => {
    openGate();
    for (const close of closers.reverse()) await close().catch(() => undefined);
    const admin = await SqlSessionService.fromUrl(POSTGRES_URL);
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.database);
    await admin.close();
  });

  it('is not resumed while its instance lives: a reconnect elsewhere follows it to its end', async () => {
    let finish: () => void = () => undefined;
    const slow = await instance(new Promise<void>((resolve) => (finish = resolve)));
    const other = await instance();
    const session = await other.sessions.createSession({ appName: 'orphans', userId: 'u' });
    const body = {
      app_name: 'orphans',
      user_id: 'u',
      session_id: session.id,
      new_message: { role: 'user', parts: [{ text: 'slow' }] },
    };
    const { lastId, disconnect } = await readUntilToolCall(slow, body);
    disconnect();
    // The reconnect polls (every 50 ms) while the run waits in its tool on the live instance.
    // Once it asked for the session's turn and found it held (its lock marks the wait), the run
    // is let go.
    const reconnect = post(other.server, body, { 'last-event-id': lastId });
    const seen: Array<{ id: string | undefined; value: Record<string, unknown> }> = [];
    const streamed = reconnect.then(async (response) => {
      for await (const frame of sseFramesWithIds(response)) seen.push(frame);
    });
    await reconnect;
    for (;;) {
      const { rows } = await sql<{ n: string }>`
        select count(*) as n from pg_locks join pg_stat_activity using (pid)
        where locktype = 'advisory' and mode = 'ShareLock' and application_name = ${schema}
      `.execute(other.sessions.database);
      if (Number(rows[0]?.n) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    finish();
    await streamed;
    expect(getText(seen.at(-1)!.value.content as Content)).toBe('answer SLOW');
    expect(slow.runs).toEqual(['slow']);
    expect(other.runs).toEqual([]);
  });

  it('is continued by runner.resume on one of two instances reconnected to at once, and ends with its answer on both', async () => {
    const dead = await instance(gate);
    const b = await instance();
    const c = await instance();
    const session = await b.sessions.createSession({ appName: 'orphans', userId: 'u' });
    const body = {
      app_name: 'orphans',
      user_id: 'u',
      session_id: session.id,
      new_message: { role: 'user', parts: [{ text: 'weather' }] },
    };

    // The run starts on the instance that will die; the client reads up to the tool call.
    const { lastId, disconnect } = await readUntilToolCall(dead, body);
    // Wait until the dead instance's tool runs (its call is stored), then "kill" it: its lock
    // connection closes (PostgreSQL frees the turn), its run hangs in the tool and never
    // stores anything again, its client is gone.
    while (dead.runs.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    disconnect();
    await dead.sessionLock.close();

    // Two reconnects at once, to two other instances.
    const [onB, onC] = await Promise.all(
      [b, c].map(async ({ server }) => {
        const seen: Array<{ id: string | undefined; value: Record<string, unknown> }> = [];
        for await (const frame of sseFramesWithIds(
          await post(server, body, { 'last-event-id': lastId }),
        ))
          seen.push(frame);
        return seen;
      }),
    );
    for (const seen of [onB!, onC!]) {
      expect(seen.map((frame) => frame.value.errorCode)).not.toContain('RUN_STREAM_STALLED');
      const last = seen.at(-1)!.value.content as Content;
      expect(getText(last)).toBe('answer WEATHER');
    }
    // Resumed once: the idempotent tool ran again on exactly one of them; one answer stored.
    expect(b.runs.length + c.runs.length).toBe(1);
    const stored = await b.sessions.getSession({
      appName: 'orphans',
      userId: 'u',
      sessionId: session.id,
    });
    const texts = stored!.events.map((event) => getText(event.content)).filter(Boolean);
    expect(texts).toEqual(['weather', 'answer WEATHER']);
    expect(
      stored!.events.filter((event) => event.content?.parts.some((part) => part.functionResponse)),
    ).toHaveLength(1);
  });
});
