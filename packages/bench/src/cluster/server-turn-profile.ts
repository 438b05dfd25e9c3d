import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { pgClient } from '../pg-client';
import { splitPerfRecording, type CpuPart } from './perf-split';
import {
  BackendCpu,
  cpuMs,
  residentMb,
  freePort,
  startAdk,
  startProcess,
  systemMs,
  waitHttpOk,
  type ClusterProcess,
} from './cluster-processes';
import { apiServerArgs } from './cluster-topology';
import { readSession, runSseTurn, type TurnTarget } from './sse-turn-client';

const PROBE = fileURLToPath(new URL('./server-probe.ts', import.meta.url));
const APP = 'cluster_load';

/** Options of {@link profileServerTurns}. */
export interface ServerTurnProfileOptions {
  users: number;
  turnsPerUser: number;
  warmupTurns: number;
  postgresUrl: string;
  redisUrl: string;
  /** Milliseconds the tool of each turn takes. */
  toolMs: number;
  /**
   * Record the measured turns with Linux `perf` (on-CPU samples, kernel included) into
   * `<perfDir>/perf.data`, the server started with `--perf-basic-prof` for JS names, and split the
   * server's CPU by part (`perf-split.ts`).
   */
  perfDir?: string;
  /**
   * Path the harness polls until it answers 200 before the warm-up (default `/health/ready`). An
   * older server without that route (an A/B against an earlier commit) takes `/list-apps`.
   */
  readyPath?: string;
  /**
   * Run `adk migrate` on the new database first (default true). An older CLI without that command
   * creates its tables when it starts.
   */
  migrate?: boolean;
  /** More arguments of `adk api_server` (`--session_cache_mib 4`, say). */
  serverArgs?: readonly string[];
}

/** What one `adk api_server` on PostgreSQL sessions spent on `/run_sse` turns. */
export interface ServerTurnProfile {
  turns: number;
  acknowledged: number;
  /** Events stored per measured turn, read back from the sessions after the measure (4 expected). */
  storedEventsPerTurn: number;
  wallMs: number;
  turnsPerSecond: number;
  /** CPU of the server process per turn (ms). */
  serverCpuMsPerTurn: number;
  /** Of which in the kernel (system time: sockets, mostly). */
  serverSystemMsPerTurn: number;
  /** The server's resident memory right after the measured turns (MB). */
  serverResidentMb: number;
  /** CPU of the PostgreSQL backends serving the server's connections, per turn (ms). */
  postgresCpuMsPerTurn: number;
  /** SQL round trips the server sent per turn (every `pg` query). */
  roundTripsPerTurn: number;
  /** Transactions per turn (explicit ones plus statements outside one), counted in the server. */
  transactionsPerTurn: number;
  byKindPerTurn: Record<string, number>;
  byApplicationPerTurn: Record<string, number>;
  /** The server's CPU per turn by part, from the `perf` samples (ms). */
  split?: Partial<Record<CpuPart, number>>;
}

interface ProbeCounts {
  roundTrips: number;
  transactions: number;
  byKind: Record<string, number>;
  byApplication: Record<string, number>;
}

async function until(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Ask the probe in the server for its counts (and start or stop its profiler). */
async function checkpoint(server: ClusterProcess, file: string): Promise<ProbeCounts> {
  rmSync(file, { force: true });
  server.child.kill('SIGUSR2');
  await until(() => existsSync(file), 'the probe');
  await new Promise((resolve) => setTimeout(resolve, 20));
  return JSON.parse(readFileSync(file, 'utf8')) as ProbeCounts;
}

async function createSession(baseUrl: string, user: string): Promise<string> {
  const response = await fetch(`${baseUrl}/apps/${APP}/users/${user}/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (!response.ok) throw new Error(`create session: ${response.status}`);
  return ((await response.json()) as { id: string }).id;
}

/**
 * Start one `adk api_server` on PostgreSQL sessions (a database of its own, BullMQ on Redis so the
 * job queue adds nothing to PostgreSQL), warm it up, then run `users` concurrent users of
 * `turnsPerUser` `/run_sse` turns each straight to it and measure, over those turns only: the
 * server's CPU, its PostgreSQL backends' CPU, the SQL round trips and transactions it sent, and
 * (with `perfDir`) where the server spent its CPU, from Linux `perf` samples.
 */
export async function profileServerTurns(
  options: ServerTurnProfileOptions,
): Promise<ServerTurnProfile> {
  const tag = `adk_profile_${process.pid}_${Date.now().toString(36)}`;
  const dir = mkdtempSync(join(tmpdir(), 'adk-profile-'));
  const probeFile = join(dir, 'probe.json');
  const admin = pgClient(options.postgresUrl);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${tag}`);
  const base = new URL(options.postgresUrl);
  base.pathname = `/${tag}`;
  const databaseUrl = base.toString();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ADK_CLUSTER_TOOL_MS: String(options.toolMs),
    ADK_PROBE_FILE: probeFile,
  };
  delete env.ADK_CLUSTER_TOOL_LOG;
  delete env.ADK_QUEUE_URL;
  delete env.ADK_API_TOKEN;
  let server: ClusterProcess | undefined;
  try {
    if (options.migrate ?? true) {
      const migrate = startAdk('migrate', ['migrate', '--session_service_uri', databaseUrl], env);
      if ((await migrate.exited) !== 'exit 0')
        throw new Error(`adk migrate failed:\n${migrate.output.join('\n')}`);
    }
    const port = await freePort();
    server = startAdk(
      'server',
      apiServerArgs(port, databaseUrl, [
        '--queue-url',
        options.redisUrl,
        '--queue-namespace',
        tag,
        ...(options.serverArgs ?? []),
      ]),
      env,
      ['--import', PROBE, ...(options.perfDir ? ['--perf-basic-prof'] : [])],
    );
    const url = `http://127.0.0.1:${port}`;
    await waitHttpOk(`${url}${options.readyPath ?? '/health/ready'}`, server);
    const targets: TurnTarget[] = [];
    for (let index = 0; index < options.users; index++) {
      const user = `user${index + 1}`;
      targets.push({ baseUrl: url, app: APP, user, session: await createSession(url, user) });
    }
    await Promise.all(
      targets.map(async (target) => {
        const own = { ...target, session: await createSession(url, target.user) };
        for (let turn = 0; turn < options.warmupTurns; turn++)
          await runSseTurn(own, `${target.user}-warmup${turn + 1}`);
      }),
    );
    const backends = new BackendCpu(admin, tag);
    await backends.start();
    const before = await checkpoint(server, probeFile);
    const cpuBefore = cpuMs(server.child.pid);
    const systemBefore = systemMs(server.child.pid);
    const perf = options.perfDir
      ? startProcess(
          'perf',
          'perf',
          [
            'record',
            '-e',
            'cpu-clock',
            '-F',
            '1999',
            '-g',
            '-o',
            join(options.perfDir, 'perf.data'),
            '-p',
            String(server.child.pid),
          ],
          process.env,
        )
      : undefined;
    const started = performance.now();
    const outcomes = await Promise.all(
      targets.map(async (target) => {
        const results = [];
        for (let turn = 0; turn < options.turnsPerUser; turn++)
          results.push(await runSseTurn(target, `${target.user}-t${turn + 1}`));
        return results;
      }),
    );
    const wallMs = performance.now() - started;
    const serverCpu = cpuMs(server.child.pid) - cpuBefore;
    const serverSystem = systemMs(server.child.pid) - systemBefore;
    const serverResident = residentMb(server.child.pid);
    if (perf) {
      perf.child.kill('SIGINT');
      await perf.exited;
    }
    const after = await checkpoint(server, probeFile);
    const postgresCpu = await backends.stop();
    // After the measure: the measured sessions hold only the measured turns' events.
    let storedEvents = 0;
    for (const target of targets) storedEvents += (await readSession(target)).length;
    const turns = outcomes.flat();
    const n = turns.length;
    const perTurn = (a: Record<string, number>, b: Record<string, number>) =>
      Object.fromEntries(
        Object.keys(a)
          .filter((key) => a[key] !== b[key])
          .map((key) => [key, Number((((a[key] ?? 0) - (b[key] ?? 0)) / n).toFixed(2))]),
      );
    let split: ServerTurnProfile['split'];
    if (options.perfDir) {
      const shares = splitPerfRecording(join(options.perfDir, 'perf.data'), server.child.pid!);
      split = Object.fromEntries(
        Object.entries(shares).map(([part, share]) => [part, (share * serverCpu) / n]),
      );
    }
    return {
      turns: n,
      acknowledged: turns.filter((turn) => turn.acknowledged).length,
      storedEventsPerTurn: storedEvents / n,
      wallMs,
      turnsPerSecond: n / (wallMs / 1000),
      serverCpuMsPerTurn: serverCpu / n,
      serverSystemMsPerTurn: serverSystem / n,
      serverResidentMb: serverResident,
      postgresCpuMsPerTurn: postgresCpu / n,
      roundTripsPerTurn: (after.roundTrips - before.roundTrips) / n,
      transactionsPerTurn: (after.transactions - before.transactions) / n,
      byKindPerTurn: perTurn(after.byKind, before.byKind),
      byApplicationPerTurn: perTurn(after.byApplication, before.byApplication),
      ...(split ? { split } : {}),
    };
  } finally {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGINT');
      await server.exited;
    }
    await admin.query(`DROP DATABASE IF EXISTS ${tag} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
}
