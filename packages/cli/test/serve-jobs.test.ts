import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  REDIS_URL,
  dropRedisPrefix,
  postgresUnavailable,
  redisPrefix,
  redisUnavailable,
} from '@adk/test-databases';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';

import { defaultJobStoreUrl, serve, type ServeHandle } from '../src';
import { spawnTracked } from './child-processes';
import { onSharedPostgres, twoInstances } from './postgres-instances';

const agentsDir = fileURLToPath(new URL('./fixtures/agents/', import.meta.url));
const bin = fileURLToPath(new URL('../bin/adk.js', import.meta.url));
const prefix = redisPrefix('serve-jobs');

interface WireJob {
  id: string;
  state: string;
  sessionId?: string;
  result?: { finalText: string; sessionId: string };
}

let dir: string;
let server: ServeHandle | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adk-cli-jobs-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const noRedis = await redisUnavailable();
const noPostgres = await postgresUnavailable();

afterAll(async () => {
  if (noRedis === undefined) await dropRedisPrefix(prefix);
});

async function enqueue(url: string, text: string): Promise<WireJob> {
  const response = await fetch(`${url}/apps/greeter/users/u1/jobs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ new_message: { role: 'user', parts: [{ text }] } }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as WireJob;
}

const jobState = async (url: string, id: string) =>
  ((await (await fetch(`${url}/apps/greeter/users/u1/jobs/${id}`)).json()) as WireJob).state;

/** The job's answer, read back from the session the run wrote to. */
async function answerIn(url: string, sessionId: string): Promise<string | undefined> {
  const session = (await (
    await fetch(`${url}/apps/greeter/users/u1/sessions/${encodeURIComponent(sessionId)}`)
  ).json()) as { events: { author: string; content?: { parts: { text?: string }[] } }[] };
  return session.events.find((event) => event.author === 'greeter')?.content?.parts[0]?.text;
}

describe('background jobs of adk web / api_server', () => {
  it('places the embedded job store beside the sessions', () => {
    expect(defaultJobStoreUrl(undefined, dir)).toBe('sqlite::memory:');
    expect(defaultJobStoreUrl('memory://', dir)).toBe('sqlite::memory:');
    expect(defaultJobStoreUrl('sqlite::memory:', dir)).toBe('sqlite::memory:');
    expect(defaultJobStoreUrl(`sqlite:${join(dir, 'sessions.db')}`, '/x')).toBe(
      `sqlite:${join(dir, 'sessions.jobs.db')}`,
    );
    expect(defaultJobStoreUrl(`sqlite:${join(dir, 'data')}`, '/x')).toBe(
      `sqlite:${join(dir, 'data.jobs.db')}`,
    );
    // PostgreSQL sessions are shared by every instance: their database holds the jobs too.
    expect(defaultJobStoreUrl('postgres://u@127.0.0.1/db', dir)).toBe('postgres://u@127.0.0.1/db');
  });

  it('runs a background job with no flag: embedded store, worker in this process', async () => {
    server = await serve({ agentsDir, port: 0, warn: () => undefined });
    expect(server.jobs).toBe('in memory (SQLite)');
    expect(server.jobWorker).toMatch(/^worker-/);
    const job = await enqueue(server.url, 'Hi');
    await expect.poll(() => jobState(server!.url, job.id), { timeout: 30_000 }).toBe('completed');
    expect(await answerIn(server.url, `job-${job.id}`)).toBe('Hello there!');
  });

  it('keeps jobs in a file beside SQLite sessions, which survives a restart', async () => {
    const sessions = `sqlite:${join(dir, 'sessions.db')}`;
    server = await serve({
      agentsDir,
      port: 0,
      sessionServiceUri: sessions,
      warn: () => undefined,
    });
    expect(server.jobs).toBe(`sqlite:${join(dir, 'sessions.jobs.db')}`);
    const job = await enqueue(server.url, 'Hi');
    await expect.poll(() => jobState(server!.url, job.id), { timeout: 30_000 }).toBe('completed');
    expect(existsSync(join(dir, 'sessions.jobs.db'))).toBe(true);
    await server.close();
    server = await serve({
      agentsDir,
      port: 0,
      sessionServiceUri: sessions,
      warn: () => undefined,
    });
    expect(await jobState(server.url, job.id)).toBe('completed');
    expect(await answerIn(server.url, `job-${job.id}`)).toBe('Hello there!');
  });

  it.skipIf(noPostgres !== undefined)(
    'shares one queue between instances on PostgreSQL sessions, with no --queue-url',
    () =>
      onSharedPostgres('cli_shared', ({ sessionServiceUri, queueNamespace }) =>
        twoInstances(
          { agentsDir, port: 0, sessionServiceUri, queueNamespace, warn: () => undefined },
          serve,
          async (first, second) => {
            expect(first.jobs).toBe(second.jobs);
            expect(first.jobs).toMatch(/^postgres/);
            expect(first.jobWorker).toMatch(/^worker-/);
            // Enqueued through one instance, seen, run and read through the other.
            const job = await enqueue(first.url, 'Hi');
            await expect
              .poll(() => jobState(second.url, job.id), { timeout: 60_000 })
              .toBe('completed');
            expect(await answerIn(second.url, `job-${job.id}`)).toBe('Hello there!');
          },
        ),
      ),
  );

  it.skipIf(noRedis !== undefined)(
    'with --queue-url starts no worker unless asked (--in-process-worker)',
    async () => {
      const queue = { queueUrl: REDIS_URL, queueNamespace: prefix, warn: () => undefined };
      server = await serve({ agentsDir, port: 0, ...queue });
      expect(server.jobWorker).toBeUndefined();
      expect(server.jobs).toBe(REDIS_URL);
      const waiting = await enqueue(server.url, 'Hi');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await jobState(server.url, waiting.id)).toBe('pending');
      await server.close();
      server = await serve({ agentsDir, port: 0, ...queue, inProcessWorker: true });
      expect(server.jobWorker).toMatch(/^worker-/);
      // The job enqueued while no worker ran is run now.
      await expect
        .poll(() => jobState(server!.url, waiting.id), { timeout: 30_000 })
        .toBe('completed');
      expect(await answerIn(server.url, `job-${waiting.id}`)).toBe('Hello there!');
    },
    30_000,
  );

  it('`adk web` says where the UI and the jobs live, and runs one, from the command line', async () => {
    const child = spawnTracked(process.execPath, [bin, 'web', agentsDir, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ADK_QUEUE_URL: '' },
    });
    try {
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      await expect
        .poll(() => /Background jobs: .*\n/.exec(stdout)?.[0], { timeout: 30_000 })
        .toMatch(/^Background jobs: in memory \(SQLite\), run in this process \(worker-/);
      const url = /on (http:\/\/\S+)/.exec(stdout)![1]!;
      // The UI where Python's `adk web` serves it.
      await expect.poll(() => stdout).toContain(`Web UI: ${url}/dev-ui/ (also at ${url}/)\n`);
      // Served as `/` is: the page when @adk/web is built, its 503 "not built" answer otherwise
      // (the tests run from sources, before any build).
      const root = await fetch(`${url}/`);
      const devUi = await fetch(`${url}/dev-ui/`);
      expect(devUi.status).toBe(root.status);
      expect(devUi.headers.get('content-type')).toBe(root.headers.get('content-type'));
      const job = await enqueue(url, 'Hi');
      await expect.poll(() => jobState(url, job.id), { timeout: 30_000 }).toBe('completed');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
