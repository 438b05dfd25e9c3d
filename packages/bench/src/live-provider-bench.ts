/**
 * The framework's added latency on the live path (issue 27): a provider audio frame arriving at
 * the server until it leaves the server's WebSocket, for `/run_live` (models-gemini's Gemini Live
 * connection, or models-openai's OpenAI Realtime one → `Runner.runLive` → the route's socket)
 * against a bare `ws` relay of the same frames, and the server's CPU per frame for both.
 *
 * The provider (a minimal Gemini Live endpoint speaking the real wire format: `setup` →
 * `setupComplete`, then binary `serverContent.modelTurn` frames of 20 ms of 24 kHz PCM; or a
 * minimal OpenAI Realtime one: `session.created`, `session.update` → `session.updated`, then
 * `response.output_audio.delta` text frames of the same audio) and the
 * client run in this process; the server under test runs in its own process
 * (`live-provider-server.ts`) so its CPU is measured alone. Each frame carries its send time
 * (`process.hrtime`) in its first PCM bytes; the client reads it back on arrival. Frames go one at
 * a time (the next one when the last arrived), so the figures are latency, not queueing. Both
 * paths cross the same two loopback sockets: the difference of their quantiles is what the
 * framework adds. Runs alternate the two servers; the table quotes the median of the runs.
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
  /** Runs of each server (default 3, 1 when quick). */
  runs?: number;
  /** Measured frames per run (default 10,000, 2,000 when quick). */
  frames?: number;
}

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

async function runOne(
  mode: 'adk' | 'relay',
  provider: Provider,
  frames: number,
  warmup: number,
  run: number,
): Promise<LiveRunResult> {
  const child = fork(SERVER, [mode, provider.url, provider.dialect], {
    execArgv: process.execArgv,
    // ADK_BENCH_LIVE_EXEC: run the server under a wrapper (such as valgrind, see PERFORMANCE.md).
    execPath: process.env.ADK_BENCH_LIVE_EXEC ?? process.execPath,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
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
    const one = () =>
      new Promise<number>((resolve) => {
        arrived = resolve;
        provider.send();
      });
    for (let i = 0; i < warmup; i++) await one();
    await request<{ started: boolean }>(child, 'cpu-start', 'started');
    const latencies: number[] = [];
    for (let i = 0; i < frames; i++) latencies.push(await one());
    const { cpuMs } = await request<{ cpuMs: number }>(child, 'cpu-stop', 'cpuMs');
    client.close();
    return { latencies, cpuMs };
  } finally {
    child.send('exit');
    await new Promise((resolve) => child.once('exit', resolve));
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
  const runs = options.runs ?? (options.quick ? 1 : 3);
  const frames = options.frames ?? (options.quick ? 2000 : 10_000);
  const warmup = options.quick ? 300 : 1000;
  const provider = new Provider(dialect);
  await new Promise<void>((resolve) => provider.server.once('listening', () => resolve()));
  const runsOf: { adk: LiveRunResult[]; relay: LiveRunResult[] } = { adk: [], relay: [] };
  try {
    for (let run = 0; run < runs; run++) {
      const order: ('adk' | 'relay')[] = run % 2 === 0 ? ['adk', 'relay'] : ['relay', 'adk'];
      for (const mode of order) {
        console.error(`[bench] live ${dialect} run ${run + 1}/${runs}: ${mode}`);
        runsOf[mode].push(await runOne(mode, provider, frames, warmup, run));
      }
    }
  } finally {
    await new Promise((resolve) => provider.server.close(resolve));
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
