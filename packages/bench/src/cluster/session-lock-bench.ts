import { loadavg } from 'node:os';

import { PostgresSessionLock } from '@adk/session-sql';

import { quantile } from '../stats';

/**
 * `node --conditions=source --import tsx src/cluster/session-lock-bench.ts`: the two figures of
 * `PostgresSessionLock` in docs/PERFORMANCE.md. A free lock taken and given back 500 times (wall
 * time per turn), and 30 hand-offs from one lock (process side) to another waiting for it: from
 * the release call to the waiting acquire's return.
 */
const url = process.env.ADK_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const namespace = `bench_${process.pid}`;
const a = await PostgresSessionLock.open({ url, namespace });
const b = await PostgresSessionLock.open({ url, namespace });
try {
  const key = { appName: 'bench', userId: 'u', sessionId: 'free' };
  for (let i = 0; i < 50; i++) await (await a.acquire(key))?.();
  const started = performance.now();
  for (let i = 0; i < 500; i++) await (await a.acquire(key))?.();
  const freeMs = (performance.now() - started) / 500;
  const handOffs: number[] = [];
  for (let i = 0; i < 30; i++) {
    const contended = { appName: 'bench', userId: 'u', sessionId: `handoff${i}` };
    const release = await a.acquire(contended);
    const waiting = b.acquire(contended);
    // Let the waiting side ask, fail and settle into its wait.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const released = performance.now();
    await release?.();
    const next = await waiting;
    handOffs.push(performance.now() - released);
    await next?.();
  }
  process.stdout.write(
    `${JSON.stringify({
      load: loadavg()[0]!.toFixed(2),
      freeAcquireReleaseMs: Number(freeMs.toFixed(2)),
      handOffMs: {
        p50: Number(quantile(handOffs, 0.5).toFixed(1)),
        max: Number(Math.max(...handOffs).toFixed(1)),
      },
    })}\n`,
  );
} finally {
  await a.close();
  await b.close();
}
