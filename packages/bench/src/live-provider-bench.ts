/**
 * The framework's added latency on the live path (issue 27): a provider audio frame arriving at
 * the server until it leaves the server's WebSocket, for `/run_live` (models-gemini's Gemini Live
 * connection, or models-openai's OpenAI Realtime one → `Runner.runLive` → the route's socket)
 * against a bare `ws` relay of the same frames, and the server's CPU per frame for both.
 *
 * The provider (a minimal Gemini Live endpoint speaking the real wire format: `setup` →
 * `setupComplete`, then binary `serverContent.modelTurn` frames of 20 ms of 24 kHz PCM; or a
 * minimal OpenAI Realtime one: `session.created`, `session.update` → `session.updated`, then
 * `response.output_audio.delta` text frames of the same audio) and the clients run in this process;
 * the servers under test run in their own processes
 * (`live-provider-server.ts`) so each one's CPU is measured alone (`process.cpuUsage` in the
 * server between `cpu-start` and `cpu-stop`). Each frame carries its send time (`process.hrtime`)
 * in its first PCM bytes; the client reads it back on arrival. Both paths cross the same two
 * loopback sockets: the difference of their quantiles is what the framework adds.
 *
 * Since the fifth pass both servers run at once, each with its own provider socket and client,
 * and the frames alternate between them: one to ours, then one to the relay when the first
 * arrived, and so on (one frame in flight in all, so the figures are latency, not queueing). Both
 * servers' CPU is read over the same wall period, so load from outside falls on both alike; before,
 * one server ran all its frames, then the other (`sequential`, kept as an option), and the relay's
 * own CPU per frame moved by a third from one run to the next with the machine's load. Runs
 * alternate which server is started first (and gets the first frame of each pair), with as many
 * runs of each order by default (4 runs, 2 when quick): the server process started first costs
 * more CPU per frame than the same code started second (measured on a quiet machine, ours /
 * relay 1.17-1.35 with ours started first, 1.03-1.14 with the relay started first; starting them
 * in the other order while keeping the frame order moved the gap with the start), so an odd
 * number of runs leans one way. The table quotes the median of the runs, the CPU ratio that of
 * the medians.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { WebSocket, WebSocketServer } from 'ws';

import type { BenchRow } from './report/row';
import { median, quantile } from './stats';

const SERVER = fileURLToPath(new URL('./live-provider-server.ts', import.meta.url));
const FRAME_BYTES = 960; // 20 ms at 24 kHz, 16-bit mono

/** Options of {@link runLiveProviderBench}. */
export interface LiveProviderBenchOptions {
  quick?: boolean;
  /** The provider APIs to run (default both, Gemini Live first). */
  dialects?: LiveDialect[];
  /**
   * Runs of each server (default 4, 2 when quick); runs alternate which server is started first,
   * so an even number balances the order.
   */
  runs?: number;
  /** Measured frames per run and server (default 10,000, 2,000 when quick). */
  frames?: number;
  /**
   * The least time, in milliseconds, each run's warm-up frames take before the measured ones
   * (default 3,000, 500 when quick; at least 1,000 frames, 300 when quick, either way). See
   * {@link Warmup}.
   */
  warmupMs?: number;
  /**
   * Run the two servers one after the other (each its own run of all its frames), as the bench
   * did before the fifth pass, instead of both at once with their frames interleaved (default).
   */
  sequential?: boolean;
}

/**
 * How long a run warms its servers up: at least `frames` frames and at least `ms` milliseconds.
 * A count alone ended the warm-up after about 0.2 s, while V8's compiler threads were still
 * optimizing our server's frame path: measured per thread (`/proc/self/task`), 12-15 µs a frame of
 * the measured window went to those threads in ours against 4-8 µs in the relay, whose code is
 * small; after 20,000 warm-up frames (about 4 s) both were at 2-3 µs. A live server runs for
 * hours, so what the bench charges per frame is the steady state, for both servers alike.
 */
interface Warmup {
  frames: number;
  ms: number;
}

/** Whether a warm-up that has sent `sent` frames since `start` (`performance.now()`) goes on. */
const warming = (warmup: Warmup, sent: number, start: number): boolean =>
  sent < warmup.frames || performance.now() - start < warmup.ms;

/** One run of one server: latencies (ms) of each measured frame and the server's CPU (ms). */
export interface LiveRunResult {
  latencies: number[];
  cpuMs: number;
}

/** One run of one server as kept in the JSON results. */
export interface LiveRunSummary {
  frames: number;
  p50Ms: number;
  p95Ms: number;
  cpuUsPerFrame: number;
}

/** Every run of both servers (Gemini Live), and of the OpenAI Realtime path when it ran. */
export interface LiveProviderBenchRaw {
  adk: LiveRunSummary[];
  relay: LiveRunSummary[];
  openai?: { adk: LiveRunSummary[]; relay: LiveRunSummary[] };
}

/** The provider APIs the bench speaks. */
export type LiveDialect = 'gemini' | 'openai';

/**
 * The bench's provider endpoint. Gemini Live: answers `setup` with `setupComplete`, then sends
 * binary `serverContent.modelTurn` frames. OpenAI Realtime: sends `session.created`, answers
 * `session.update` with `session.updated`, then sends `response.output_audio.delta` text frames.
 */
class Provider {
  readonly server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  #socket: WebSocket | undefined;
  #ready: (() => void) | undefined;
  readonly #pcm = Buffer.alloc(FRAME_BYTES, 0x11);

  constructor(readonly dialect: LiveDialect) {
    this.server.on('connection', (socket) => {
      if (dialect === 'openai') {
        socket.send(JSON.stringify({ type: 'session.created', event_id: 'ev-0', session: {} }));
      }
      socket.once('message', () => {
        socket.send(
          dialect === 'openai'
            ? JSON.stringify({ type: 'session.updated', event_id: 'ev-1', session: {} })
            : Buffer.from(JSON.stringify({ setupComplete: {} })),
        );
        this.#socket = socket;
        this.#ready?.();
      });
    });
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  /** Resolves once a server connected and its setup was answered. */
  connected(): Promise<void> {
    if (this.#socket) return Promise.resolve();
    return new Promise((resolve) => {
      this.#ready = resolve;
    });
  }

  forget(): void {
    this.#socket = undefined;
    this.#ready = undefined;
  }

  /** Send one audio frame stamped with the time now. */
  send(): void {
    this.#pcm.writeBigInt64LE(process.hrtime.bigint(), 0);
    if (this.dialect === 'openai') {
      const event = {
        type: 'response.output_audio.delta',
        event_id: 'ev-audio',
        response_id: 'resp-1',
        item_id: 'item-1',
        output_index: 0,
        content_index: 0,
        delta: this.#pcm.toString('base64'),
      };
      this.#socket!.send(JSON.stringify(event));
      return;
    }
    const frame = {
      serverContent: {
        modelTurn: {
          parts: [
            {
              inlineData: { mimeType: 'audio/pcm;rate=24000', data: this.#pcm.toString('base64') },
            },
          ],
        },
      },
    };
    this.#socket!.send(Buffer.from(JSON.stringify(frame)));
  }
}

function request<T>(child: ChildProcess, message: string, key: keyof T): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (reply: unknown) => {
      if (reply && typeof reply === 'object' && key in reply) {
        child.off('message', onMessage);
        resolve(reply as T);
      }
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

/** The send time carried by an audio frame as the client receives it (either server's shape). */
function stampOf(text: string): bigint | undefined {
  const frame = JSON.parse(text) as {
    content?: { parts?: { inlineData?: { data?: string } }[] };
    serverContent?: { modelTurn?: { parts?: { inlineData?: { data?: string } }[] } };
    type?: string;
    delta?: string;
  };
  const data =
    frame.type === 'response.output_audio.delta'
      ? frame.delta
      : (frame.content?.parts ?? frame.serverContent?.modelTurn?.parts)?.[0]?.inlineData?.data;
  return data ? Buffer.from(data, 'base64').readBigInt64LE(0) : undefined;
}

/** A server under test, its client connected and its provider socket set up. */
interface Side {
  readonly mode: 'adk' | 'relay';
  readonly child: ChildProcess;
  /** Send one frame and resolve with its latency (ms) when the client has it. */
  one(): Promise<number>;
  close(): Promise<void>;
}

async function startSide(mode: 'adk' | 'relay', provider: Provider, run: number): Promise<Side> {
  const child = fork(SERVER, [mode, provider.url, provider.dialect], {
    execArgv: process.execArgv,
    // ADK_BENCH_LIVE_EXEC: run the server under a wrapper (such as valgrind, see PERFORMANCE.md).
    execPath: process.env.ADK_BENCH_LIVE_EXEC ?? process.execPath,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const close = async () => {
    child.send('exit');
    await new Promise((resolve) => child.once('exit', resolve));
  };
  try {
    const { port } = await new Promise<{ port: number }>((resolve, reject) => {
      child.once('message', (message) => resolve(message as { port: number }));
      child.once('exit', (code) => reject(new Error(`live ${mode} server exited (${code})`)));
    });
    provider.forget();
    const path =
      mode === 'adk'
        ? `/run_live?app_name=voice&user_id=bench&session_id=live-${run}&modalities=AUDIO`
        : '/';
    const client = new WebSocket(`ws://127.0.0.1:${port}${path}`);
    let arrived: ((latency: number) => void) | undefined;
    client.on('message', (data: Buffer) => {
      const stamp = stampOf(data.toString('utf8'));
      if (stamp === undefined) return;
      const latency = Number(process.hrtime.bigint() - stamp) / 1e6;
      arrived?.(latency);
    });
    await new Promise<void>((resolve, reject) => {
      client.once('open', () => resolve());
      client.once('error', reject);
    });
    await provider.connected();
    return {
      mode,
      child,
      one: () =>
        new Promise<number>((resolve) => {
          arrived = resolve;
          provider.send();
        }),
      close: async () => {
        client.close();
        await close();
      },
    };
  } catch (error) {
    if (child.exitCode === null) await close();
    throw error;
  }
}

const cpuStart = (side: Side) => request<{ started: boolean }>(side.child, 'cpu-start', 'started');
const cpuStop = async (side: Side) =>
  (await request<{ cpuMs: number }>(side.child, 'cpu-stop', 'cpuMs')).cpuMs;

/** The sequential method (before November 2026's fifth pass): one server's run, then the other's. */
async function runOne(
  mode: 'adk' | 'relay',
  provider: Provider,
  frames: number,
  warmup: Warmup,
  run: number,
): Promise<LiveRunResult> {
  const side = await startSide(mode, provider, run);
  try {
    const start = performance.now();
    for (let i = 0; warming(warmup, i, start); i++) await side.one();
    await cpuStart(side);
    const latencies: number[] = [];
    for (let i = 0; i < frames; i++) latencies.push(await side.one());
    return { latencies, cpuMs: await cpuStop(side) };
  } finally {
    await side.close();
  }
}

/**
 * The interleaved method: both servers run at once, each on its own provider socket, and the
 * frames alternate between them (one frame in flight in all: the next goes to the other server
 * when the last arrived), so load from outside falls on both alike; each server's CPU is read over
 * the same wall period (from `cpu-start`, sent to both, to `cpu-stop`). `first` gets the first
 * frame of each pair.
 */
async function runPair(
  first: 'adk' | 'relay',
  providers: Record<'adk' | 'relay', Provider>,
  frames: number,
  warmup: Warmup,
  run: number,
): Promise<Record<'adk' | 'relay', LiveRunResult>> {
  const second = first === 'adk' ? 'relay' : 'adk';
  const a = await startSide(first, providers[first], run);
  try {
    const b = await startSide(second, providers[second], run);
    try {
      const start = performance.now();
      for (let i = 0; warming(warmup, i, start); i++) {
        await a.one();
        await b.one();
      }
      await Promise.all([cpuStart(a), cpuStart(b)]);
      const latenciesA: number[] = [];
      const latenciesB: number[] = [];
      for (let i = 0; i < frames; i++) {
        latenciesA.push(await a.one());
        latenciesB.push(await b.one());
      }
      const [cpuA, cpuB] = await Promise.all([cpuStop(a), cpuStop(b)]);
      return {
        [first]: { latencies: latenciesA, cpuMs: cpuA },
        [second]: { latencies: latenciesB, cpuMs: cpuB },
      } as Record<'adk' | 'relay', LiveRunResult>;
    } finally {
      await b.close();
    }
  } finally {
    await a.close();
  }
}

/**
 * Run the live benchmark: rows for the table (ours against the bare relay) and the raw figures,
 * for Gemini Live then OpenAI Realtime (the rows of the latter are labelled so).
 */
export async function runLiveProviderBench(
  options: LiveProviderBenchOptions = {},
): Promise<{ rows: BenchRow[]; raw: LiveProviderBenchRaw }> {
  const dialects = options.dialects ?? ['gemini', 'openai'];
  const rows: BenchRow[] = [];
  let raw: LiveProviderBenchRaw = { adk: [], relay: [] };
  for (const dialect of dialects) {
    const outcome = await runDialect(dialect, options);
    rows.push(...outcome.rows);
    if (dialect === 'gemini') raw = { ...raw, ...outcome.raw };
    else raw.openai = outcome.raw;
  }
  return { rows, raw };
}

async function runDialect(
  dialect: LiveDialect,
  options: LiveProviderBenchOptions,
): Promise<{ rows: BenchRow[]; raw: { adk: LiveRunSummary[]; relay: LiveRunSummary[] } }> {
  const runs = options.runs ?? (options.quick ? 2 : 4);
  const frames = options.frames ?? (options.quick ? 2000 : 10_000);
  const warmup: Warmup = {
    frames: options.quick ? 300 : 1000,
    ms: options.warmupMs ?? (options.quick ? 500 : 3000),
  };
  const providers = { adk: new Provider(dialect), relay: new Provider(dialect) };
  const listening = (provider: Provider) =>
    new Promise<void>((resolve) => provider.server.once('listening', () => resolve()));
  await Promise.all([listening(providers.adk), listening(providers.relay)]);
  const runsOf: { adk: LiveRunResult[]; relay: LiveRunResult[] } = { adk: [], relay: [] };
  try {
    for (let run = 0; run < runs; run++) {
      const order: ('adk' | 'relay')[] = run % 2 === 0 ? ['adk', 'relay'] : ['relay', 'adk'];
      if (options.sequential) {
        for (const mode of order) {
          console.error(`[bench] live ${dialect} run ${run + 1}/${runs}: ${mode}`);
          runsOf[mode].push(await runOne(mode, providers[mode], frames, warmup, run));
        }
      } else {
        console.error(`[bench] live ${dialect} run ${run + 1}/${runs}: both, interleaved`);
        const pair = await runPair(order[0]!, providers, frames, warmup, run);
        runsOf.adk.push(pair.adk);
        runsOf.relay.push(pair.relay);
      }
    }
  } finally {
    const close = (provider: Provider) => new Promise((resolve) => provider.server.close(resolve));
    await Promise.all([close(providers.adk), close(providers.relay)]);
  }
  const summary = (result: LiveRunResult): LiveRunSummary => ({
    frames: result.latencies.length,
    p50Ms: quantile(result.latencies, 0.5),
    p95Ms: quantile(result.latencies, 0.95),
    cpuUsPerFrame: (result.cpuMs * 1000) / result.latencies.length,
  });
  const raw = {
    adk: runsOf.adk.map(summary),
    relay: runsOf.relay.map(summary),
  };
  const at = (runs: LiveRunSummary[], key: 'p50Ms' | 'p95Ms') =>
    median(runs.map((run) => run[key]));
  const cpuUs = (runs: LiveRunSummary[]) => median(runs.map((run) => run.cpuUsPerFrame));
  // The runs of the two servers are paired (run i of each ran back to back).
  const added = (key: 'p50Ms' | 'p95Ms') =>
    median(raw.adk.map((run, i) => run[key] - raw.relay[i]![key]));
  // Gemini's rows keep their labels (the history compares them); OpenAI's say so.
  const of = dialect === 'openai' ? ' (OpenAI Realtime)' : '';
  const label = `Live${of} audio frame, provider → client (vs bare ws relay)`;
  return {
    raw,
    rows: [
      {
        label: `${label}, p50`,
        unit: 'ms',
        ours: at(raw.adk, 'p50Ms'),
        theirs: at(raw.relay, 'p50Ms'),
        better: 'lower',
      },
      {
        label: `${label}, p95`,
        unit: 'ms',
        ours: at(raw.adk, 'p95Ms'),
        theirs: at(raw.relay, 'p95Ms'),
        better: 'lower',
      },
      {
        label: `Live${of}: latency added by the framework, p50`,
        unit: 'ms',
        ours: added('p50Ms'),
        theirs: undefined,
        better: 'lower',
      },
      {
        label: `Live${of}: latency added by the framework, p95`,
        unit: 'ms',
        ours: added('p95Ms'),
        theirs: undefined,
        better: 'lower',
        goal: { subject: 'ours', op: '<=', target: 1 },
      },
      {
        label: `Live${of}: server CPU per audio frame (vs bare ws relay)`,
        unit: 'µs',
        ours: cpuUs(raw.adk),
        theirs: cpuUs(raw.relay),
        better: 'lower',
        goal: { subject: 'ratio', op: '<=', target: 1.2 },
      },
    ],
  };
}
