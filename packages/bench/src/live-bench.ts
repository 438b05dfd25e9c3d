/**
 * The live path benchmark (issue 27): how long an audio frame takes from the model's live
 * connection to the client of `/run_live` (the runner's receiver, the event channel, the
 * server's socket, the client's socket), p50/p95, against a bare relay sending the same JSON
 * frame over a plain `ws` server; and the CPU per frame of each. Both ends run in this process,
 * so both figures include the client's receive. Run alone with
 * `pnpm --filter @adk/bench bench:live [-- --quick]`, or in `pnpm bench` (ADK_BENCH_LIVE=0 skips).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

import { InMemorySessionService, LlmAgent, type LlmResponse } from '@adk/core';
import { FakeLiveModel } from '@adk/core/testing';
import { createAdkServer, listen } from '@adk/server';
import { WebSocket, WebSocketServer } from 'ws';

import { cpuMsSince, cpuNow, elapsedMs, quantile } from './stats';

/** 20 ms of 24 kHz 16-bit mono PCM, what Gemini Live sends per chunk. */
const AUDIO_FRAME: LlmResponse = {
  partial: true,
  content: {
    role: 'model',
    parts: [
      {
        inlineData: {
          mimeType: 'audio/pcm;rate=24000',
          data: Buffer.alloc(960).toString('base64'),
        },
      },
    ],
  },
};

/** One measured path. */
export interface LiveBenchRow {
  path: 'bare ws relay' | 'adk /run_live';
  frames: number;
  p50Ms: number;
  p95Ms: number;
  cpuUsPerFrame: number;
}

/** Send `frames` frames one at a time with `emit`, timing each until `client` receives it. */
async function measure(
  path: LiveBenchRow['path'],
  client: WebSocket,
  emit: () => void,
  frames: number,
): Promise<LiveBenchRow> {
  const warmup = Math.min(200, Math.floor(frames / 5));
  const latencies: number[] = [];
  let cpu = cpuNow();
  for (let index = 0; index < frames + warmup; index++) {
    if (index === warmup) cpu = cpuNow();
    const received = new Promise<void>((resolve) => client.once('message', () => resolve()));
    const start = process.hrtime.bigint();
    emit();
    await received;
    if (index >= warmup) latencies.push(elapsedMs(start));
  }
  const cpuMs = cpuMsSince(cpu);
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    path,
    frames,
    p50Ms: round(quantile(latencies, 0.5)),
    p95Ms: round(quantile(latencies, 0.95)),
    cpuUsPerFrame: Math.round((cpuMs * 1000) / frames),
  };
}

async function bareRelay(frames: number): Promise<LiveBenchRow> {
  const http = createServer();
  const wss = new WebSocketServer({ server: http });
  const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${(http.address() as AddressInfo).port}`);
  await new Promise((resolve) => client.once('open', resolve));
  const server = await accepted;
  // The relay sends what the framework sends: the frame as event JSON.
  const row = await measure(
    'bare ws relay',
    client,
    () => server.send(JSON.stringify(AUDIO_FRAME)),
    frames,
  );
  client.close();
  wss.close();
  await new Promise((resolve) => http.close(resolve));
  return row;
}

async function adkLive(frames: number): Promise<LiveBenchRow> {
  const model = new FakeLiveModel();
  const sessionService = new InMemorySessionService();
  const agent = new LlmAgent({ name: 'voice', model });
  const server = await listen(createAdkServer({ apps: { voice: { agent } }, sessionService }), {
    port: 0,
  });
  const { id } = await sessionService.createSession({ appName: 'voice', userId: 'bench' });
  const client = new WebSocket(
    `${server.url.replace('http', 'ws')}/run_live?app_name=voice&user_id=bench&session_id=${id}`,
  );
  await new Promise((resolve) => client.once('open', resolve));
  while (model.connections.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  const connection = model.connections[0]!;
  const row = await measure('adk /run_live', client, () => connection.emit(AUDIO_FRAME), frames);
  client.close();
  await server.close();
  return row;
}

/** Both paths, the bare relay first. */
export async function runLiveBench(options: { quick?: boolean } = {}): Promise<LiveBenchRow[]> {
  const frames = options.quick ? 1000 : 5000;
  return [await bareRelay(frames), await adkLive(frames)];
}

/** A Markdown table of the rows, with the framework's share against the relay. */
export function renderLiveBench(rows: readonly LiveBenchRow[]): string {
  const [bare, adk] = rows;
  const lines = [
    '| path | frames | p50 (ms) | p95 (ms) | CPU per frame (µs) |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) => `| ${r.path} | ${r.frames} | ${r.p50Ms} | ${r.p95Ms} | ${r.cpuUsPerFrame} |`,
    ),
  ];
  if (bare && adk) {
    const added = Math.round((adk.p95Ms - bare.p95Ms) * 1000) / 1000;
    const ratio = Math.round((adk.cpuUsPerFrame / Math.max(1, bare.cpuUsPerFrame)) * 100) / 100;
    lines.push('', `Added by the framework: ${added} ms at p95; CPU ${ratio}x the bare relay's.`);
  }
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await runLiveBench({ quick: process.argv.includes('--quick') });
  console.log(
    `\nLive path, provider frame to client (20 ms audio frames):\n\n${renderLiveBench(rows)}`,
  );
}
