import { pgClient } from '../pg-client';
import { BackendCpu, cpuMs, tcpPassiveOpens } from './cluster-processes';
import { quantile } from '../stats';
import { findHaproxy, startCluster, type Cluster } from './cluster-topology';
import { runJobTurn, runSseTurn, type TurnOutcome, type TurnTarget } from './sse-turn-client';
import { verifySessions, type Verification } from './verify-sessions';

/** Options of {@link runClusterLoad}. */
export interface ClusterLoadOptions {
  users: number;
  turnsPerUser: number;
  instances: number;
  workers: number;
  /** SIGKILL one instance and restart another gracefully mid-run (needs 2+ instances). */
  chaos: boolean;
  /** Which turn of each user goes through a background job (-1: none). */
  jobTurn: number;
  /**
   * Turns each user runs first on each server (straight to its port, not through HAProxy),
   * untimed and unchecked, on a session of its own (default 0): every server then compiles its
   * hot paths on as many turns, whatever the number of servers, before the figures are taken.
   */
  warmupTurns?: number;
  /**
   * Send every measured turn straight to the first server instead of through HAProxy (default
   * false): the other servers then get no turn, and their CPU is what an instance pays for the
   * others' turns (notifications, polls, health checks). Needs `chaos` off.
   */
  firstServerOnly?: boolean;
  postgresUrl: string;
  redisUrl: string;
  /** HAProxy binary (default: found in /usr/sbin). */
  haproxy?: string;
  shutdownTimeoutSeconds?: number;
  toolMs?: number;
  log?: (line: string) => void;
}

/** A chaos action and when it happened. */
export interface ChaosEvent {
  action: string;
  atMs: number;
  detail: string;
}

/** The figures of one load run. */
export interface ClusterLoadReport {
  options: Omit<ClusterLoadOptions, 'log' | 'postgresUrl' | 'redisUrl'>;
  wallMs: number;
  requests: number;
  turns: number;
  acknowledged: number;
  /** Turns that ended without an answer, by how they ended (error code). */
  errors: Record<string, number>;
  sse: { breaks: number; resumes: number; refused503: number };
  latency: { p50: number; p95: number; max: number };
  turnsPerSecond: number;
  cpu: {
    adkMsPerTurn: number;
    haproxyMsPerTurn: number;
    /** The PostgreSQL backends serving the run's database (sessions, artifacts, locks). */
    postgresMsPerTurn: number;
    adkMs: number;
    /** Each server's CPU over the measured turns, divided by all the turns. */
    serversMsPerTurn: number[];
    /** The workers' CPU over the measured turns, divided by all the turns. */
    workersMsPerTurn: number;
    /** Each server's CPU per second while no turn ran (3 s after the warm-up, ms/s). */
    serversIdleMsPerSecond: number[];
    /**
     * Each server's CPU over the measured turns divided by all the turns, on its main thread (the
     * JavaScript) and on its other threads (V8's compiler and GC helpers, libuv's pool).
     */
    serversThreadsMsPerTurn: Array<{ main: number; others: number }>;
    /**
     * Each server's main-thread context switches over the measured turns divided by all the turns:
     * voluntary (it slept, then was woken) and involuntary (preempted).
     */
    serversSwitchesPerTurn: Array<{ voluntary: number; involuntary: number }>;
    /** TCP connections accepted on the machine over the measured turns (all processes), per turn. */
    tcpConnectionsPerTurn: number;
  };
  /**
   * With chaos: the turns whose stream broke when the instance was killed, and how long after the
   * SIGKILL the last of them ended (answered, or resumed elsewhere to a typed end).
   */
  killedTurns?: { count: number; lastEndedAfterMs: number };
  chaos: ChaosEvent[];
  verification: Verification;
}

interface UserRun {
  target: TurnTarget;
  turns: TurnOutcome[];
}

const APP = 'cluster_load';

async function createSession(baseUrl: string, user: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(`${baseUrl}/apps/${APP}/users/${user}/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      if (response.ok) return ((await response.json()) as { id: string }).id;
      if (attempt > 20)
        throw new Error(`create session: ${response.status} ${await response.text()}`);
    } catch (error) {
      if (attempt > 20) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The chaos of a run: once a quarter of the turns are done, SIGKILL instance 1; once half are
 * done, SIGTERM instance 2 (it drains), wait for it to exit, start it again on its port.
 */
async function chaos(
  cluster: Cluster,
  done: () => number,
  total: number,
  started: number,
  events: ChaosEvent[],
) {
  const at = () => Math.round(performance.now() - started);
  const waitFor = async (fraction: number) => {
    while (done() < total * fraction) await new Promise((resolve) => setTimeout(resolve, 50));
  };
  const [killed, restarted] = cluster.instances;
  await waitFor(0.25);
  const before = cpuMs(killed!.current.child.pid);
  killed!.current.child.kill('SIGKILL');
  killed!.pastCpuMs += before;
  await killed!.current.exited;
  events.push({ action: 'SIGKILL', atMs: at(), detail: `instance :${killed!.port}` });
  await waitFor(0.5);
  const cpuBefore = cpuMs(restarted!.current.child.pid);
  const term = performance.now();
  restarted!.current.child.kill('SIGTERM');
  const how = await restarted!.current.exited;
  restarted!.pastCpuMs += cpuBefore;
  events.push({
    action: 'SIGTERM',
    atMs: at(),
    detail:
      `instance :${restarted!.port} drained and exited (${how}) in ${Math.round(performance.now() - term)} ms` +
      (how === 'exit 0'
        ? ''
        : `; its last output:\n${restarted!.current.output.slice(-15).join('\n')}`),
  });
  await cluster.restart(restarted!);
  events.push({
    action: 'restart',
    atMs: at(),
    detail: `instance :${restarted!.port} ready again`,
  });
}

/**
 * Run the cluster load test: start the cluster, run `users` concurrent users of `turnsPerUser`
 * turns each over `/run_sse` through HAProxy (one turn per user as a background job), with the
 * chaos above, then check the sessions and the tool log.
 */
export async function runClusterLoad(options: ClusterLoadOptions): Promise<ClusterLoadReport> {
  const log = options.log ?? (() => undefined);
  const haproxy = options.haproxy ?? findHaproxy();
  if (!haproxy) throw new Error('HAProxy is not installed: apt-get install -y haproxy');
  if (options.chaos && options.instances < 2) throw new Error('chaos needs 2 instances or more');
  if (options.chaos && options.firstServerOnly)
    throw new Error('firstServerOnly measures without chaos');
  log(`starting ${options.instances} servers, ${options.workers} workers, HAProxy`);
  const cluster = await startCluster({
    instances: options.instances,
    workers: options.workers,
    postgresUrl: options.postgresUrl,
    redisUrl: options.redisUrl,
    haproxy,
    shutdownTimeoutSeconds: options.shutdownTimeoutSeconds ?? 10,
    toolMs: options.toolMs ?? 40,
  });
  try {
    log(`cluster up behind ${cluster.url}`);
    const users: UserRun[] = [];
    for (let index = 0; index < options.users; index++) {
      const user = `user${index + 1}`;
      users.push({
        target: {
          baseUrl: cluster.url,
          app: APP,
          user,
          session: await createSession(cluster.url, user),
        },
        turns: [],
      });
    }
    const warmup = options.warmupTurns ?? 0;
    if (warmup > 0) {
      log(`warm-up: ${warmup} turns per user on each server`);
      for (const slot of cluster.instances) {
        const direct = `http://127.0.0.1:${slot.port}`;
        await Promise.all(
          users.map(async ({ target }) => {
            const own = {
              ...target,
              baseUrl: direct,
              session: await createSession(direct, target.user),
            };
            for (let turn = 0; turn < warmup; turn++)
              await runSseTurn(own, `${target.user}-warmup${slot.port}-${turn + 1}`);
          }),
        );
      }
    }
    const serverCpu = () => cluster.instances.map((slot) => cluster.slotCpuMs(slot));
    const threadsCpu = () => cluster.instances.map((slot) => cluster.slotThreadsCpuMs(slot));
    const idleStart = threadsCpu();
    const idleMs = 3000;
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    const idleEnd = threadsCpu();
    if (options.firstServerOnly) {
      const direct = `http://127.0.0.1:${cluster.instances[0]!.port}`;
      for (const run of users) run.target = { ...run.target, baseUrl: direct };
    }
    const total = options.users * options.turnsPerUser;
    let done = 0;
    const admin = pgClient(options.postgresUrl);
    await admin.connect();
    const postgres = new BackendCpu(admin, new URL(cluster.databaseUrl).pathname.slice(1));
    await postgres.start();
    const cpuStart = cluster.adkCpuMs();
    const serversStart = serverCpu();
    const threadsStart = threadsCpu();
    const switches = () => cluster.instances.map((slot) => cluster.slotContextSwitches(slot));
    const switchesStart = switches();
    const opensStart = tcpPassiveOpens();
    const workersStart = cluster.workersCpuMs();
    const haproxyStart = cluster.haproxyCpuMs();
    const started = performance.now();
    const chaosEvents: ChaosEvent[] = [];
    const chaosRun = options.chaos
      ? chaos(cluster, () => done, total, started, chaosEvents)
      : Promise.resolve();
    await Promise.all(
      users.map(async (run) => {
        for (let turn = 0; turn < options.turnsPerUser; turn++) {
          const id = `${run.target.user}-t${turn + 1}-${Math.random().toString(36).slice(2, 8)}`;
          const outcome =
            turn === options.jobTurn
              ? await runJobTurn(run.target, id)
              : await runSseTurn(run.target, id);
          run.turns.push(outcome);
          done++;
        }
      }),
    );
    const wallMs = performance.now() - started;
    await chaosRun;
    const serversEnd = serverCpu();
    const threadsEnd = threadsCpu();
    const switchesEnd = switches();
    const opens = tcpPassiveOpens() - opensStart;
    const workersMs = cluster.workersCpuMs() - workersStart;
    const adkMs = cluster.adkCpuMs() - cpuStart;
    const haproxyMs = cluster.haproxyCpuMs() - haproxyStart;
    const postgresMs = await postgres.stop();
    await admin.end();
    log('checking the sessions');
    const verification = await verifySessions(users, cluster.toolLog);
    const outcomes = users.flatMap((run) => run.turns);
    const killedAt = chaosEvents.find((event) => event.action === 'SIGKILL')?.atMs;
    const acknowledged = outcomes.filter((outcome) => outcome.acknowledged);
    const latencies = acknowledged.map((outcome) => outcome.latencyMs);
    const errors: Record<string, number> = {};
    for (const outcome of outcomes)
      if (outcome.endedWith) errors[outcome.endedWith] = (errors[outcome.endedWith] ?? 0) + 1;
    const { log: _log, postgresUrl: _pg, redisUrl: _redis, ...shown } = options;
    return {
      options: shown,
      wallMs,
      requests: outcomes.reduce((sum, outcome) => sum + outcome.requests, 0),
      turns: outcomes.length,
      acknowledged: acknowledged.length,
      errors,
      sse: {
        breaks: outcomes.reduce((sum, outcome) => sum + outcome.breaks, 0),
        resumes: outcomes.reduce((sum, outcome) => sum + outcome.resumes, 0),
        refused503: outcomes.reduce((sum, outcome) => sum + outcome.refused, 0),
      },
      latency: {
        p50: quantile(latencies, 0.5),
        p95: quantile(latencies, 0.95),
        max: Math.max(...latencies),
      },
      turnsPerSecond: acknowledged.length / (wallMs / 1000),
      cpu: {
        adkMs,
        adkMsPerTurn: adkMs / Math.max(1, outcomes.length),
        haproxyMsPerTurn: haproxyMs / Math.max(1, outcomes.length),
        postgresMsPerTurn: postgresMs / Math.max(1, outcomes.length),
        serversMsPerTurn: serversEnd.map(
          (end, index) => (end - serversStart[index]!) / Math.max(1, outcomes.length),
        ),
        workersMsPerTurn: workersMs / Math.max(1, outcomes.length),
        serversIdleMsPerSecond: idleEnd.map(
          (end, index) =>
            ((end.main + end.others - idleStart[index]!.main - idleStart[index]!.others) * 1000) /
            idleMs,
        ),
        tcpConnectionsPerTurn: opens / Math.max(1, outcomes.length),
        serversSwitchesPerTurn: switchesEnd.map((end, index) => ({
          voluntary:
            (end.voluntary - switchesStart[index]!.voluntary) / Math.max(1, outcomes.length),
          involuntary:
            (end.involuntary - switchesStart[index]!.involuntary) / Math.max(1, outcomes.length),
        })),
        serversThreadsMsPerTurn: threadsEnd.map((end, index) => ({
          main: (end.main - threadsStart[index]!.main) / Math.max(1, outcomes.length),
          others: (end.others - threadsStart[index]!.others) / Math.max(1, outcomes.length),
        })),
      },
      chaos: chaosEvents,
      ...(killedAt === undefined ? {} : { killedTurns: killedTurns(outcomes, killedAt, started) }),
      verification,
    };
  } finally {
    await cluster.stop();
  }
}

/**
 * The `/run_sse` turns in flight when the instance was killed (their stream broke and they ended
 * after the SIGKILL), and when the last of them ended, counted from the SIGKILL.
 */
function killedTurns(
  outcomes: readonly TurnOutcome[],
  killedAtMs: number,
  started: number,
): { count: number; lastEndedAfterMs: number } {
  const hit = outcomes.filter(
    (outcome) =>
      !outcome.viaJob &&
      outcome.breaks > 0 &&
      outcome.endedAt - started >= killedAtMs &&
      outcome.endedAt - outcome.latencyMs - started <= killedAtMs,
  );
  return {
    count: hit.length,
    lastEndedAfterMs: Math.max(0, ...hit.map((outcome) => outcome.endedAt - started - killedAtMs)),
  };
}

/** The report as text lines. */
export function formatClusterLoadReport(report: ClusterLoadReport): string {
  const v = report.verification;
  const o = report.options;
  return [
    `cluster load: ${o.instances} servers, ${o.workers} workers, HAProxy; ${o.users} users x ${o.turnsPerUser} turns${o.chaos ? '; SIGKILL + graceful restart mid-run' : ''}`,
    `requests ${report.requests}, turns ${report.turns}, acknowledged ${report.acknowledged}, errors ${JSON.stringify(report.errors)}`,
    `lost: ${v.lostTurns.length} acknowledged turns, ${v.lostEvents} received events; duplicated: ${v.duplicatedMessages.length} user messages, ${v.duplicatedToolRuns.length} tool runs`,
    `turn latency p50 ${report.latency.p50.toFixed(0)} ms, p95 ${report.latency.p95.toFixed(0)} ms, max ${report.latency.max.toFixed(0)} ms; ${report.turnsPerSecond.toFixed(1)} turns/s over ${(report.wallMs / 1000).toFixed(1)} s`,
    `CPU per turn: ${report.cpu.adkMsPerTurn.toFixed(1)} ms in ADK processes (servers + workers), ${report.cpu.postgresMsPerTurn.toFixed(1)} ms in PostgreSQL, ${report.cpu.haproxyMsPerTurn.toFixed(2)} ms in HAProxy`,
    `  servers ${report.cpu.serversMsPerTurn.map((ms) => ms.toFixed(2)).join(' / ')} ms, workers ${report.cpu.workersMsPerTurn.toFixed(2)} ms; servers idle ${report.cpu.serversIdleMsPerSecond.map((ms) => ms.toFixed(1)).join(' / ')} ms of CPU per second`,
    `  TCP connections accepted on the machine per turn: ${report.cpu.tcpConnectionsPerTurn.toFixed(2)}`,
    `  servers' main-thread context switches per turn, voluntary / involuntary: ${report.cpu.serversSwitchesPerTurn.map((c) => `${c.voluntary.toFixed(2)} / ${c.involuntary.toFixed(2)}`).join(', ')}`,
    `  servers' main thread / other threads: ${report.cpu.serversThreadsMsPerTurn.map((t) => `${t.main.toFixed(2)} / ${t.others.toFixed(2)}`).join(', ')} ms per turn`,
    `clients saw: ${report.sse.breaks} broken streams, ${report.sse.resumes} Last-Event-ID resumes, ${report.sse.refused503} 503 refusals retried; ${v.unacknowledgedToolRuns} unacknowledged turns whose tool had run; ${v.storedEvents} events stored`,
    ...(report.killedTurns
      ? [
          `killed instance's turns in flight: ${report.killedTurns.count}, the last ended ${report.killedTurns.lastEndedAfterMs.toFixed(0)} ms after the SIGKILL`,
        ]
      : []),
    ...report.chaos.map(
      (event) => `  ${(event.atMs / 1000).toFixed(1)} s ${event.action}: ${event.detail}`,
    ),
  ].join('\n');
}
