import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { PgClient } from '../pg-client';

const CLI_SOURCE = fileURLToPath(new URL('../../../cli/src/bin.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

/** One process of the cluster, with its output kept for the report. */
export interface ClusterProcess {
  name: string;
  child: ChildProcess;
  output: string[];
  /** Resolves with the exit code or signal once it exits. */
  exited: Promise<string>;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Start a process, keeping its last output lines. */
export function startProcess(
  name: string,
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): ClusterProcess {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (output.length > 200) output.splice(0, output.length - 200);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? `exit ${code}`)),
  );
  return { name, child, output, exited };
}

/** `adk <args>` from the CLI's sources (the `source` condition through tsx), `nodeArgs` to Node. */
export function startAdk(
  name: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  nodeArgs: readonly string[] = [],
): ClusterProcess {
  return startProcess(
    name,
    process.execPath,
    ['--conditions=source', '--import', TSX, ...nodeArgs, CLI_SOURCE, ...args],
    env,
  );
}

/** Wait until `url` answers 200 (or the process exits: then throw with its output). */
export async function waitHttpOk(
  url: string,
  proc: ClusterProcess,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: string | undefined;
  void proc.exited.then((how) => (exited = how));
  for (;;) {
    if (exited)
      throw new Error(
        `${proc.name} exited (${exited}) before ${url} answered:\n${proc.output.join('\n')}`,
      );
    try {
      const response = await fetch(url);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`${url} did not answer 200 in ${timeoutMs} ms:\n${proc.output.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Wait until the process prints a line matching `pattern`. */
export async function waitOutput(
  proc: ClusterProcess,
  pattern: RegExp,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!proc.output.some((line) => pattern.test(line))) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null)
      throw new Error(`${proc.name} exited before printing ${pattern}:\n${proc.output.join('\n')}`);
    if (Date.now() > deadline)
      throw new Error(`${proc.name} did not print ${pattern}:\n${proc.output.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** User + system CPU time of a process so far, in milliseconds (Linux `/proc`). */
export function cpuMs(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/**
 * CPU time of a process's live threads so far, in milliseconds, from the scheduler's nanosecond
 * counters (`/proc/<pid>/task/<tid>/schedstat`), split into the main thread (where JavaScript
 * runs) and the others (V8's compiler and garbage-collector helpers, libuv's pool): precise enough
 * for an idle process, whose `/proc/<pid>/stat` times move in 10 ms ticks.
 */
export function threadsCpuMs(pid: number | undefined): { main: number; others: number } {
  const times = { main: 0, others: 0 };
  if (!pid) return times;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`))
      try {
        const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
        if (Number(tid) === pid) times.main += ns / 1e6;
        else times.others += ns / 1e6;
      } catch {
        // the thread ended
      }
  } catch {
    // the process ended
  }
  return times;
}

/**
 * Context switches of a process's main thread so far (`/proc/<pid>/status`): `voluntary` when it
 * went to sleep waiting for something (each is a wake-up later), `involuntary` when the scheduler
 * took the CPU from it (another runnable process wanted it).
 */
export function contextSwitches(pid: number | undefined): {
  voluntary: number;
  involuntary: number;
} {
  const counts = { voluntary: 0, involuntary: 0 };
  if (!pid) return counts;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    counts.voluntary = Number(/^voluntary_ctxt_switches:\s*(\d+)/m.exec(status)?.[1] ?? 0);
    counts.involuntary = Number(/^nonvoluntary_ctxt_switches:\s*(\d+)/m.exec(status)?.[1] ?? 0);
  } catch {
    // the process ended
  }
  return counts;
}

/** TCP connections accepted on this machine so far (`PassiveOpens` of `/proc/net/snmp`), all processes. */
export function tcpPassiveOpens(): number {
  try {
    const lines = readFileSync('/proc/net/snmp', 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('Tcp:'));
    const names = lines[0]!.split(/\s+/);
    return Number(lines[1]!.split(/\s+/)[names.indexOf('PassiveOpens')]);
  } catch {
    return 0;
  }
}

/** System (kernel) CPU time of a process so far, in milliseconds (Linux `/proc`). */
export function systemMs(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[12]) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** Resident memory of process `pid` (`VmRSS` of `/proc`), in MB; 0 when it cannot be read. */
export function residentMb(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? 0 : Number(kb) / 1024;
  } catch {
    return 0;
  }
}

/** Write an HAProxy configuration and start HAProxy in the foreground. */
export function startHaproxy(binary: string, dir: string, config: string): ClusterProcess {
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  return startProcess('haproxy', binary, ['-db', '-f', file], process.env);
}

/**
 * CPU of the PostgreSQL backends serving one database (Linux `/proc`, PostgreSQL on this machine),
 * sampled every 200 ms so that backends which start or end during the measure are counted (a
 * backend's CPU after its last sample is lost). `admin` is a connection of its own, not counted.
 */
export class BackendCpu {
  readonly #admin: PgClient;
  readonly #database: string;
  readonly #seen = new Map<number, { first: number; last: number }>();
  #started = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(admin: PgClient, database: string) {
    this.#admin = admin;
    this.#database = database;
  }

  async #sample(): Promise<void> {
    const result = (await this.#admin.query(
      `SELECT pid FROM pg_stat_activity WHERE datname = '${this.#database}' AND pid <> pg_backend_pid()`,
    )) as { rows: Array<{ pid: number }> };
    for (const { pid } of result.rows) {
      const now = cpuMs(pid);
      const known = this.#seen.get(pid);
      if (known) known.last = Math.max(known.last, now);
      else this.#seen.set(pid, { first: this.#started ? 0 : now, last: now });
    }
  }

  /** Start measuring: what the backends used before is left out. */
  async start(): Promise<void> {
    await this.#sample();
    this.#started = true;
    this.#timer = setInterval(() => void this.#sample().catch(() => undefined), 200);
  }

  /** Stop, and return the backends' CPU since `start` (ms). */
  async stop(): Promise<number> {
    clearInterval(this.#timer);
    await this.#sample();
    let sum = 0;
    for (const { first, last } of this.#seen.values()) sum += last - first;
    return sum;
  }
}
