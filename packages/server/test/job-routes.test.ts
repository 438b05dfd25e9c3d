import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { LlmAgent, Runner } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { JobWorker, SqlJobStore } from '@adk/jobs';
import { createSessionService } from '@adk/session-sql';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';

import { createAdkServer, listen, type RunningServer } from '../src';

interface WireJob {
  id: string;
  state: string;
  attempt: number;
  sessionId?: string;
  result?: { finalText: string; sessionId: string };
  lastError?: { message: string };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server on real SQLite: sessions and jobs in files of a fresh folder. */
async function start(
  options: {
    withJobs?: boolean;
    answer?: () => string | Promise<string>;
    watchMs?: number;
  } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'adk-job-routes-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const sessionService = await createSessionService(`sqlite:${join(dir, 'sessions.db')}`, {
    autoMigrate: true,
  });
  cleanups.push(() => sessionService.close());
  const agent = new LlmAgent({
    name: 'analyst',
    model: new FakeModel({ responses: options.answer ?? (() => 'Revenue grew 12%.') }),
  });
  const runner = new Runner({ appName: 'reports', agent, sessionService });
  const database = new Database(join(dir, 'sessions.jobs.db'));
  const jobStore = new SqlJobStore({
    db: new Kysely({ dialect: new SqliteDialect({ database }) }),
    ownsDatabase: true,
  });
  cleanups.push(() => jobStore.close());
  const app = createAdkServer({
    apps: { reports: { agent, runner } },
    sessionService,
    ...(options.withJobs === false ? {} : { jobStore }),
    // Long enough that a test sees a change pushed by the hub, not found by a rescan.
    jobWatchIntervalMs: options.watchMs ?? 60_000,
  });
  const server: RunningServer = await listen(app, { port: 0 });
  cleanups.push(() => server.close());
  const url = (path: string) => `${server.url}${path}`;
  return { url, jobStore, runner, sessionService };
}

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** Enqueue through the route. */
async function enqueue(url: (path: string) => string, body: Record<string, unknown>) {
  const response = await fetch(url('/apps/reports/users/u1/jobs'), json(body));
  expect(response.status).toBe(201);
  return (await response.json()) as WireJob;
}

/** The frames of a job stream, read as they arrive. */
function watch(url: string) {
  const controller = new AbortController();
  const frames: { reset?: boolean; jobs: WireJob[]; removed: string[]; error?: string }[] = [];
  const latest = new Map<string, WireJob>();
  const done = (async () => {
    const response = await fetch(url, { signal: controller.signal });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { done: ended, value } = await reader.read();
      if (ended) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!frame.startsWith('data: ')) continue;
        const parsed = JSON.parse(frame.slice(6)) as (typeof frames)[number];
        frames.push(parsed);
        if (parsed.reset) latest.clear();
        for (const job of parsed.jobs ?? []) latest.set(job.id, job);
        for (const id of parsed.removed ?? []) latest.delete(id);
      }
    }
  })().catch((error: unknown) => {
    if ((error as Error).name !== 'AbortError') throw error;
  });
  cleanups.push(async () => {
    controller.abort();
    await done;
  });
  return { frames, latest, stop: () => controller.abort(), done };
}

describe('background job routes on a SQLite job store', () => {
  it('enqueues a run, shows its state, and its result once a worker ran it', async () => {
    const { url, jobStore, runner, sessionService } = await start();
    const job = await enqueue(url, {
      new_message: { role: 'user', parts: [{ text: 'Analyze Q3' }] },
    });
    expect(job.state).toBe('pending');
    const path = `/apps/reports/users/u1/jobs/${job.id}`;
    expect(await (await fetch(url(path))).json()).toMatchObject({ id: job.id, state: 'pending' });
    await new JobWorker({ store: jobStore, runners: [runner] }).drain();
    expect(await (await fetch(url(path))).json()).toMatchObject({
      state: 'completed',
      attempt: 1,
      result: { finalText: 'Revenue grew 12%.', sessionId: `job-${job.id}` },
    });
    // The run wrote its own session, readable through the session routes.
    const session = await sessionService.getSession({
      appName: 'reports',
      userId: 'u1',
      sessionId: `job-${job.id}`,
    });
    expect(session?.events.map((event) => event.content?.parts?.[0]?.text)).toEqual([
      'Analyze Q3',
      'Revenue grew 12%.',
    ]);
    const listed = (await (await fetch(url('/apps/reports/users/u1/jobs'))).json()) as unknown[];
    expect(listed).toHaveLength(1);
    const completed = (await (
      await fetch(url('/apps/reports/users/u1/jobs?state=pending'))
    ).json()) as unknown[];
    expect(completed).toHaveLength(0);
    // Another user does not see it; a finished job cannot be cancelled.
    expect((await fetch(url(`/apps/reports/users/u2/jobs/${job.id}`))).status).toBe(404);
    expect(await (await fetch(url('/apps/reports/users/u2/jobs'))).json()).toEqual([]);
    expect((await fetch(url(path), { method: 'DELETE' })).status).toBe(409);
  });

  it('runs in the session given, with priority and delay stored', async () => {
    const { url } = await start();
    const job = await enqueue(url, {
      new_message: { parts: [{ text: 'later' }] },
      session_id: 's1',
      priority: 3,
      run_in_ms: 60_000,
    });
    expect(job).toMatchObject({ sessionId: 's1', priority: 3, state: 'pending' });
    const stored = (await (await fetch(url(`/apps/reports/users/u1/jobs/${job.id}`))).json()) as {
      runAt: number;
      createdAt: number;
    };
    expect(stored.runAt - stored.createdAt).toBe(60_000);
  });

  it('cancels a pending job, refuses bad bodies and unknown apps', async () => {
    const { url } = await start();
    const bad = await fetch(url('/apps/reports/users/u1/jobs'), json({ new_message: {} }));
    expect(bad.status).toBe(400);
    const unknown = await fetch(
      url('/apps/nope/users/u1/jobs'),
      json({ new_message: { parts: [{ text: 'x' }] } }),
    );
    expect(unknown.status).toBe(404);
    // A delay beyond what a Date holds: the job would never run.
    const never = await fetch(
      url('/apps/reports/users/u1/jobs'),
      json({ new_message: { parts: [{ text: 'x' }] }, run_in_ms: 1e16 }),
    );
    expect(never.status).toBe(400);
    expect(((await never.json()) as { detail: string }).detail).toMatch(/runIn/);
    expect((await fetch(url('/apps/nope/users/u1/jobs'))).status).toBe(404);
    expect((await fetch(url('/apps/nope/users/u1/jobs/stream'))).status).toBe(404);
    const badState = await fetch(url('/apps/reports/users/u1/jobs?state=finished'));
    expect(badState.status).toBe(400);
    expect(((await badState.json()) as { detail: string }).detail).toMatch(/pending, running/);
    expect(await (await fetch(url('/apps/reports/users/u1/jobs'))).json()).toEqual([]);
    const job = await enqueue(url, {
      new_message: { parts: [{ text: 'later' }] },
      run_in_ms: 60_000,
    });
    const cancelled = await fetch(url(`/apps/reports/users/u1/jobs/${job.id}`), {
      method: 'DELETE',
    });
    expect(await cancelled.json()).toMatchObject({ state: 'cancelled' });
  });

  it('answers 501 without a job store, the stream included', async () => {
    const { url } = await start({ withJobs: false });
    expect((await fetch(url('/apps/reports/users/u1/jobs'))).status).toBe(501);
    expect((await fetch(url('/apps/reports/users/u1/jobs/stream'))).status).toBe(501);
  });
});

describe('the job stream', () => {
  it('sends the list, then pushes each change made in this process at once', async () => {
    const { url, jobStore, runner } = await start();
    const before = await enqueue(url, { new_message: { parts: [{ text: 'first' }] } });
    const stream = watch(url('/apps/reports/users/u1/jobs/stream'));
    await expect.poll(() => stream.frames.length).toBe(1);
    expect(stream.frames[0]).toMatchObject({ reset: true, removed: [] });
    expect(stream.frames[0]!.jobs.map((job) => job.id)).toEqual([before.id]);

    const second = await enqueue(url, { new_message: { parts: [{ text: 'second' }] } });
    // Pushed by the hub: the rescan interval is a minute.
    await expect
      .poll(() => stream.latest.get(second.id)?.state, { timeout: 30_000 })
      .toBe('pending');
    expect(stream.frames.at(-1)!.jobs.map((job) => job.id)).toEqual([second.id]);

    const worker = new JobWorker({ store: jobStore, runners: [runner], queues: { default: 2 } });
    await worker.drain();
    await expect
      .poll(() => [...stream.latest.values()].map((job) => job.state), { timeout: 30_000 })
      .toEqual(['completed', 'completed']);
    expect(stream.latest.get(second.id)?.result?.finalText).toBe('Revenue grew 12%.');
    // Every frame after the first carries changes only.
    for (const frame of stream.frames.slice(1)) {
      expect(frame.reset).toBe(false);
      expect(frame.jobs.length + frame.removed.length).toBeGreaterThan(0);
    }
    // Pruned jobs are reported gone at the next scan.
    expect(await jobStore.prune({ finishedBefore: Date.now() + 1 })).toBe(2);
    await enqueue(url, { new_message: { parts: [{ text: 'third' }] } });
    await expect.poll(() => stream.latest.size, { timeout: 30_000 }).toBe(1);
    expect(stream.frames.at(-1)!.removed.sort()).toEqual([before.id, second.id].sort());
  });

  it('finds changes made by another process within the rescan interval', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adk-job-stream-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'jobs.db');
    const open = () =>
      new SqlJobStore({
        db: new Kysely({ dialect: new SqliteDialect({ database: new Database(file) }) }),
        ownsDatabase: true,
      });
    const served = open();
    const elsewhere = open(); // another connection, as another process would have
    cleanups.push(() => served.close());
    cleanups.push(() => elsewhere.close());
    const sessionService = await createSessionService('sqlite::memory:', { autoMigrate: true });
    const agent = new LlmAgent({ name: 'analyst', model: new FakeModel({ responses: ['ok'] }) });
    const app = createAdkServer({
      apps: { reports: { agent } },
      sessionService,
      jobStore: served,
      jobWatchIntervalMs: 100,
    });
    const server = await listen(app, { port: 0 });
    cleanups.push(() => server.close());
    const stream = watch(`${server.url}/apps/reports/users/u1/jobs/stream`);
    await expect.poll(() => stream.frames.length).toBe(1);
    expect(stream.frames[0]!.jobs).toEqual([]);
    const { job } = await elsewhere.enqueue({
      appName: 'reports',
      userId: 'u1',
      message: { role: 'user', parts: [{ text: 'from elsewhere' }] },
    });
    // Another user's job is not sent.
    await elsewhere.enqueue({
      appName: 'reports',
      userId: 'u2',
      message: { role: 'user', parts: [{ text: 'not yours' }] },
    });
    await expect.poll(() => stream.latest.get(job.id)?.state, { timeout: 30_000 }).toBe('pending');
    await elsewhere.cancel(job.id);
    await expect
      .poll(() => stream.latest.get(job.id)?.state, { timeout: 30_000 })
      .toBe('cancelled');
    expect(stream.latest.size).toBe(1);
  });

  it('pushes the cancel of a running job, whose run is aborted', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    cleanups.push(() => release());
    const { url, jobStore, runner } = await start({
      answer: async () => {
        await gate;
        return 'too late';
      },
    });
    const stream = watch(url('/apps/reports/users/u1/jobs/stream'));
    const worker = new JobWorker({
      store: jobStore,
      runners: [runner],
      leaseMs: 300,
      pollIntervalMs: 20,
      onError: () => undefined,
    });
    worker.start();
    cleanups.push(() => worker.stop());
    const job = await enqueue(url, { new_message: { parts: [{ text: 'slow' }] } });
    await expect.poll(() => stream.latest.get(job.id)?.state, { timeout: 30_000 }).toBe('running');
    const response = await fetch(url(`/apps/reports/users/u1/jobs/${job.id}`), {
      method: 'DELETE',
    });
    expect(response.status).toBe(200);
    await expect
      .poll(() => stream.latest.get(job.id)?.state, { timeout: 30_000 })
      .toBe('cancelled');
    // The worker learns it at its next lease renewal and stops the run.
    await expect.poll(() => worker.running, { timeout: 30_000 }).toBe(0);
    release();
    expect((await jobStore.get(job.id))?.state).toBe('cancelled');
  });

  it('ends the stream with an error frame when the store fails', async () => {
    const { url, jobStore } = await start({ watchMs: 50 });
    const stream = watch(url('/apps/reports/users/u1/jobs/stream'));
    await expect.poll(() => stream.frames.length).toBe(1);
    await jobStore.close(); // the database is destroyed: the next scan fails
    await stream.done;
    expect(stream.frames.at(-1)?.error).toBeTruthy();
  });
});
