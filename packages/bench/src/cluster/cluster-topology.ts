import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { renderHaproxyConfig } from '@adk/cli';
import { Redis } from 'ioredis';

import { pgClient } from '../pg-client';
import {
  contextSwitches,
  cpuMs,
  freePort,
  startAdk,
  startHaproxy,
  threadsCpuMs,
  waitHttpOk,
  waitOutput,
  type ClusterProcess,
} from './cluster-processes';

/** The folder of agents every server and worker serves. */
export const CLUSTER_AGENTS_DIR = fileURLToPath(new URL('./agents/', import.meta.url));

/** Where HAProxy may be installed (Debian puts it in /usr/sbin). */
export function findHaproxy(): string | undefined {
  return ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy', '/usr/bin/haproxy'].find((path) =>
    existsSync(path),
  );
}

/** `adk api_server` of the cluster's agents on 127.0.0.1:`port` with sessions in `databaseUrl`. */
export function apiServerArgs(
  port: number,
  databaseUrl: string,
  more: readonly string[],
): string[] {
  return [
    'api_server',
    CLUSTER_AGENTS_DIR,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--session_service_uri',
    databaseUrl,
    ...more,
  ];
}

/** Options of {@link startCluster}. */
export interface ClusterOptions {
  instances: number;
  workers: number;
  /** Base PostgreSQL URL (a database of its own is created next to it). */
  postgresUrl: string;
  redisUrl: string;
  haproxy: string;
  /** Drain deadline of the servers (seconds). */
  shutdownTimeoutSeconds: number;
  /** Milliseconds the tool of each turn takes. */
  toolMs: number;
}

/** One `adk api_server` slot behind HAProxy: its port stays, its process may be replaced. */
export interface InstanceSlot {
  port: number;
  current: ClusterProcess;
  /** CPU of the processes this slot ran before the current one (ms). */
  pastCpuMs: number;
}

/** A running cluster: servers, workers and HAProxy on real PostgreSQL and Redis. */
export interface Cluster {
  url: string;
  instances: InstanceSlot[];
  workers: ClusterProcess[];
  haproxy: ClusterProcess;
  toolLog: string;
  databaseUrl: string;
  /** Start a new server process in a slot (after its previous one exited). */
  restart(slot: InstanceSlot): Promise<void>;
  /** CPU so far of every ADK process (servers, past and present, and workers), ms. */
  adkCpuMs(): number;
  /** CPU so far of one server slot (its past and present processes), ms. */
  slotCpuMs(slot: InstanceSlot): number;
  /** CPU so far of a slot's current process, its live threads only, to the nanosecond (ms). */
  slotThreadsCpuMs(slot: InstanceSlot): { main: number; others: number };
  /** Context switches so far of a slot's current process's main thread. */
  slotContextSwitches(slot: InstanceSlot): { voluntary: number; involuntary: number };
  /** CPU so far of the workers, ms. */
  workersCpuMs(): number;
  haproxyCpuMs(): number;
  stop(): Promise<void>;
}

/**
 * Start the topology of a deployment on this machine without containers: an own PostgreSQL
 * database (migrated once by `adk migrate`), an own BullMQ key prefix on Redis, `instances`
 * `adk api_server` processes, `workers` `adk worker` processes and HAProxy (round-robin, checks on
 * `/health/ready`, the configuration `adk deploy docker` writes, with static addresses).
 */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const tag = `adk_cluster_${process.pid}_${Date.now().toString(36)}`;
  const dir = mkdtempSync(join(tmpdir(), 'adk-cluster-'));
  const toolLog = join(dir, 'tool-runs.log');
  const admin = pgClient(options.postgresUrl);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${tag}`);
  await admin.end();
  const base = new URL(options.postgresUrl);
  base.pathname = `/${tag}`;
  const databaseUrl = base.toString();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ADK_CLUSTER_TOOL_LOG: toolLog,
    ADK_CLUSTER_TOOL_MS: String(options.toolMs),
  };
  delete env.ADK_QUEUE_URL;
  delete env.ADK_API_TOKEN;
  const all: ClusterProcess[] = [];
  const slots: InstanceSlot[] = [];
  const workers: ClusterProcess[] = [];
  let haproxy: ClusterProcess | undefined;
  let lbPort = 0;
  const queue = ['--queue-url', options.redisUrl, '--queue-namespace', tag];
  const stop = async () => {
    const live = [...all].filter(
      (proc) => proc.child.exitCode === null && proc.child.signalCode === null,
    );
    for (const proc of live) proc.child.kill('SIGINT');
    await Promise.all(live.map((proc) => proc.exited));
    const redis = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${tag}:*`, 'COUNT', 500);
        cursor = next;
        if (keys.length > 0) await redis.del(...keys);
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
    const cleanup = pgClient(options.postgresUrl);
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${tag} WITH (FORCE)`);
    await cleanup.end();
    rmSync(dir, { recursive: true, force: true });
  };
  const startServer = async (port: number): Promise<ClusterProcess> => {
    const proc = startAdk(
      `server:${port}`,
      apiServerArgs(port, databaseUrl, [
        '--artifact_service_uri',
        databaseUrl,
        ...queue,
        '--shutdown-timeout',
        String(options.shutdownTimeoutSeconds),
      ]),
      env,
    );
    all.push(proc);
    await waitHttpOk(`http://127.0.0.1:${port}/health/ready`, proc);
    return proc;
  };
  try {
    const migrate = startAdk(
      'migrate',
      ['migrate', '--session_service_uri', databaseUrl, '--artifact_service_uri', databaseUrl],
      env,
    );
    all.push(migrate);
    const migrated = await migrate.exited;
    if (migrated !== 'exit 0')
      throw new Error(`adk migrate failed (${migrated}):\n${migrate.output.join('\n')}`);
    const ports = await Promise.all(Array.from({ length: options.instances }, () => freePort()));
    // One at a time: on 2 busy cores, several tsx start-ups at once take longer than in a row.
    for (const port of ports) slots.push({ port, current: await startServer(port), pastCpuMs: 0 });
    for (let index = 0; index < options.workers; index++) {
      const worker = startAdk(
        `worker:${index + 1}`,
        [
          'worker',
          CLUSTER_AGENTS_DIR,
          ...queue,
          '--session_service_uri',
          databaseUrl,
          '--worker_id',
          `${tag}-w${index + 1}`,
        ],
        env,
      );
      all.push(worker);
      workers.push(worker);
      await waitOutput(worker, /ADK worker .* running jobs/);
    }
    lbPort = await freePort();
    haproxy = startHaproxy(
      options.haproxy,
      dir,
      renderHaproxyConfig({
        bind: `127.0.0.1:${lbPort}`,
        servers: { kind: 'static', addresses: ports.map((port) => `127.0.0.1:${port}`) },
        checkIntervalMs: 500,
        logToStdout: false,
      }),
    );
    all.push(haproxy);
    await waitHttpOk(`http://127.0.0.1:${lbPort}/health/ready`, haproxy);
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
  const lb = haproxy!;
  return {
    url: `http://127.0.0.1:${lbPort}`,
    instances: slots,
    workers,
    haproxy: lb,
    toolLog,
    databaseUrl,
    restart: async (slot) => {
      slot.current = await startServer(slot.port);
    },
    adkCpuMs: () =>
      slots.reduce((sum, slot) => sum + slot.pastCpuMs + cpuMs(slot.current.child.pid), 0) +
      workers.reduce((sum, worker) => sum + cpuMs(worker.child.pid), 0),
    slotCpuMs: (slot) => slot.pastCpuMs + cpuMs(slot.current.child.pid),
    slotThreadsCpuMs: (slot) => threadsCpuMs(slot.current.child.pid),
    slotContextSwitches: (slot) => contextSwitches(slot.current.child.pid),
    workersCpuMs: () => workers.reduce((sum, worker) => sum + cpuMs(worker.child.pid), 0),
    haproxyCpuMs: () => cpuMs(lb.child.pid),
    stop,
  };
}
