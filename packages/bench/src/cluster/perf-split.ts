import { execFileSync } from 'node:child_process';

/** Where a share of a server's CPU goes, by the JavaScript running when `perf` sampled it. */
export type CpuPart =
  | 'http and sse'
  | 'debug traces'
  | 'session store (session-sql, kysely)'
  | 'pg driver'
  | 'session lock'
  | 'runner and agent (core)'
  | 'garbage collector'
  | 'V8 threads (compiler, GC helpers)'
  | 'other (promise jobs, timers, native)';

/** Script URL patterns, first match wins, tried from the sampled frame outwards. */
const PARTS: Array<[CpuPart, RegExp]> = [
  ['session lock', /\/lock\/|session-lock/],
  ['debug traces', /\/traces\/|telemetry|opentelemetry/],
  ['pg driver', /\/pg\/|\/pg-protocol\/|\/pg-pool\/|\/pg-types\//],
  ['session store (session-sql, kysely)', /\/session-sql\/|\/sql-kit\/|\/kysely\//],
  ['http and sse', /\/packages\/server\/|\/hono\/|@hono|node:_http|node:http|undici/],
  ['runner and agent (core)', /\/packages\/core\/|\/zod\/|cluster_load/],
];

/**
 * Node's sockets and streams, which both the HTTP server and the `pg` driver write and read
 * through: passed over, so that a socket write counts for the code further out that made it (a
 * query's write for the driver, a frame's for HTTP); a sample with nothing further out counts for
 * HTTP, the usual caller.
 */
const SOCKETS = /node:net|webstreams|node:internal\/streams|node:stream|stream_base_commons/;

/**
 * Split the on-CPU samples of `perf record -g` (the server started with `--perf-basic-prof`, so
 * JavaScript frames have names) by part: a sample counts for the innermost JavaScript frame of a
 * known script on its stack, Node's socket and stream code passed over (kernel and native frames
 * below it included: a socket write counts for whoever wrote, the driver or HTTP), samples of other
 * threads for V8's threads. Returns each part's share (0-1).
 */
export function splitPerfRecording(perfData: string, mainPid: number): Record<CpuPart, number> {
  // Run while the process's `/tmp/perf-<pid>.map` is still there (it names the JS frames).
  const script = execFileSync('perf', ['script', '-i', perfData, '-F', 'tid,ip,sym,dso'], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return splitPerfScript(script, mainPid);
}

/** {@link splitPerfRecording} of the text of `perf script -F tid,ip,sym,dso`. */
export function splitPerfScript(script: string, mainPid: number): Record<CpuPart, number> {
  const counts = new Map<CpuPart, number>();
  let total = 0;
  for (const block of script.split('\n\n')) {
    const lines = block.split('\n').filter((line) => line.trim() !== '');
    if (lines.length === 0) continue;
    total++;
    const tid = Number(lines[0]!.trim().split(/\s+/)[0]);
    let part: CpuPart | undefined;
    let socket = false;
    if (tid !== mainPid) part = 'V8 threads (compiler, GC helpers)';
    for (const line of lines.slice(1)) {
      if (part) break;
      if (/Scavenge|MarkCompact/.test(line)) part = 'garbage collector';
      else if (/\(\/tmp\/perf-\d+\.map\)/.test(line)) {
        if (SOCKETS.test(line)) socket = true;
        else part = PARTS.find(([, pattern]) => pattern.test(line))?.[0];
      }
    }
    part ??= socket ? 'http and sse' : 'other (promise jobs, timers, native)';
    counts.set(part, (counts.get(part) ?? 0) + 1);
  }
  const shares = {} as Record<CpuPart, number>;
  for (const [part, count] of counts) shares[part] = count / Math.max(1, total);
  return shares;
}
