import { fileURLToPath } from 'node:url';

import {
  REDIS_URL,
  dropRedisPrefix,
  postgresUnavailable,
  redisPrefix,
  redisUnavailable,
} from '@adk/test-databases';
import { describe, expect, it } from 'vitest';

import { type ServeOptions } from '../src';
import { spawnTracked } from './child-processes';
import { onSharedPostgres, twoInstances } from './postgres-instances';

const agentsDir = fileURLToPath(new URL('./fixtures/agents/', import.meta.url));
const INSTANCE = fileURLToPath(new URL('./fixtures/serve-instance.ts', import.meta.url));
const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** `serve(options)` in a child process (its own job channels, as on another machine). */
async function serveElsewhere(
  options: ServeOptions,
): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawnTracked(
    process.execPath,
    [
      '--conditions=source',
      '--import',
      'tsx',
      INSTANCE,
      JSON.stringify({ ...options, warn: undefined }),
    ],
    { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let stdout = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening (\S+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new TypeError(`instance exited with ${code}`)));
  });
  return {
    url,
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
const noPostgres = await postgresUnavailable();
const noRedis = await redisUnavailable();

interface Frame {
  reset: boolean;
  jobs: { id: string; state: string }[];
}

/** An open job stream of `url`; `waitFor` resolves when a frame shows a job in a state. */
async function openJobStream(url: string) {
  const controller = new AbortController();
  const response = await fetch(`${url}/apps/greeter/users/u1/jobs/stream`, {
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const seen: { at: number; frame: Frame }[] = [];
  const waiters = new Set<() => void>();
  void (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: '', done: true }));
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block.split('\n').find((line) => line.startsWith('data: '));
        if (data) seen.push({ at: performance.now(), frame: JSON.parse(data.slice(6)) as Frame });
        for (const wake of waiters) wake();
      }
    }
  })();
  const find = (id: string, state: string) =>
    seen.find(({ frame }) => frame.jobs.some((job) => job.id === id && job.state === state));
  return {
    /** When the frame showing job `id` in `state` arrived (performance.now()). */
    waitFor: (id: string, state: string) =>
      new Promise<number>((resolve) => {
        const check = () => {
          const hit = find(id, state);
          if (!hit) return;
          waiters.delete(check);
          resolve(hit.at);
        };
        waiters.add(check);
        check();
      }),
    close: () => controller.abort(),
  };
}

async function enqueue(url: string): Promise<{ id: string; sent: number }> {
  const sent = performance.now();
  const response = await fetch(`${url}/apps/greeter/users/u1/jobs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      new_message: { role: 'user', parts: [{ text: 'Hi' }] },
      run_in_ms: 600_000,
    }),
  });
  expect(response.status).toBe(201);
  return { id: ((await response.json()) as { id: string }).id, sent };
}

/**
 * Two instances in two processes; a job stream open on the second; jobs enqueued and cancelled
 * through the first. The streams re-list only every 10 minutes, so every frame seen came from a
 * notification.
 */
async function crossInstance(options: ServeOptions, label: string): Promise<void> {
  await twoInstances(options, serveElsewhere, async (first, second) => {
    const stream = await openJobStream(second.url);
    try {
      const latencies: number[] = [];
      for (let round = 0; round < 10; round++) {
        const job = await enqueue(first.url);
        latencies.push((await stream.waitFor(job.id, 'pending')) - job.sent);
        const cancelled = await fetch(`${first.url}/apps/greeter/users/u1/jobs/${job.id}`, {
          method: 'DELETE',
        });
        expect(cancelled.status).toBe(200);
        await stream.waitFor(job.id, 'cancelled');
      }
      latencies.sort((a, b) => a - b);
      console.log(
        `${label}: enqueue on A → frame on B, ms: p50 ${latencies[5]!.toFixed(1)}, max ${latencies[9]!.toFixed(1)} (min ${latencies[0]!.toFixed(1)})`,
      );
    } finally {
      stream.close();
    }
  });
}

describe('job streams learn of other instances’ job changes by notification', () => {
  it.skipIf(noPostgres !== undefined)('PostgreSQL LISTEN/NOTIFY (graphile-worker queue)', () =>
    onSharedPostgres('cli_notify', ({ sessionServiceUri, queueNamespace }) =>
      crossInstance(
        {
          agentsDir,
          port: 0,
          sessionServiceUri,
          queueNamespace,
          inProcessWorker: false,
          jobWatchIntervalMs: 600_000,
          warn: () => undefined,
        },
        'PostgreSQL',
      ),
    ),
  );

  it.skipIf(noRedis !== undefined)('Redis pub/sub (BullMQ queue)', async () => {
    const prefix = redisPrefix('cli-notify');
    try {
      await crossInstance(
        {
          agentsDir,
          port: 0,
          queueUrl: REDIS_URL,
          queueNamespace: prefix,
          jobWatchIntervalMs: 600_000,
          warn: () => undefined,
        },
        'Redis',
      );
    } finally {
      await dropRedisPrefix(prefix);
    }
  });
});
