/**
 * The cluster load test at a small size: 3 `adk api_server` processes and 2 `adk worker`
 * processes on real PostgreSQL and Redis behind a real HAProxy, 3 users x 4 turns over `/run_sse`
 * (one turn each as a background job), one instance SIGKILLed and one restarted with SIGTERM
 * mid-run. Without HAProxy, PostgreSQL or Redis it skips, except under CI=true where it fails.
 */
import { createConnection } from 'node:net';

import { describe, expect, it } from 'vitest';

import { formatClusterLoadReport, runClusterLoad } from './cluster-load';
import { findHaproxy } from './cluster-topology';

const POSTGRES_URL = process.env.ADK_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.ADK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || defaultPort) });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

const missing = [
  findHaproxy() ? undefined : 'HAProxy (apt-get install -y haproxy)',
  (await reachable(POSTGRES_URL, 5432)) ? undefined : `PostgreSQL at ${POSTGRES_URL}`,
  (await reachable(REDIS_URL, 6379)) ? undefined : `Redis at ${REDIS_URL}`,
].filter(Boolean);
if (missing.length > 0 && process.env.CI === 'true') {
  throw new TypeError(`The cluster load test needs ${missing.join(', ')} under CI=true`);
}

describe('cluster load: 3 servers and 2 workers behind HAProxy', () => {
  it.skipIf(missing.length > 0)(
    'loses and duplicates nothing when one instance is killed and another restarted gracefully mid-run',
    async () => {
      const report = await runClusterLoad({
        users: 3,
        turnsPerUser: 4,
        instances: 3,
        workers: 2,
        chaos: true,
        jobTurn: 2,
        postgresUrl: POSTGRES_URL,
        redisUrl: REDIS_URL,
      });
      process.stdout.write(`${formatClusterLoadReport(report)}\n`);
      expect(report.chaos.map((event) => event.action)).toEqual(['SIGKILL', 'SIGTERM', 'restart']);
      expect(report.chaos[1]!.detail).toContain('exit 0');
      expect(report.turns).toBe(12);
      const v = report.verification;
      expect(v.lostTurns).toEqual([]);
      expect(v.lostEvents).toBe(0);
      expect(v.duplicatedMessages).toEqual([]);
      expect(v.duplicatedToolRuns).toEqual([]);
      // Every turn either got its answer or, when its instance was killed after its tool call
      // was stored, was resumed on another instance and ended with the interrupted call
      // answered (TOOL_INTERRUPTED: the tool is not idempotent, so not run again). None stalled
      // or was given up on.
      const ends = Object.keys(report.errors);
      expect(ends.filter((code) => code !== 'TOOL_INTERRUPTED')).toEqual([]);
      expect(report.acknowledged + (report.errors.TOOL_INTERRUPTED ?? 0)).toBe(12);
    },
  );
});
