/**
 * The server side of the live benchmark, in its own process so its CPU is measured alone:
 * `adk` serves `/run_live` (`createAdkServer` + `listen`) for an agent on a Gemini Live model
 * (`@adk/models-gemini`) or an OpenAI Realtime model (`@adk/models-openai`) pointed at the
 * bench's provider; `relay` is a bare `ws` relay of the same provider socket (each provider frame
 * sent on, as is, to the client). The parent talks over IPC: it gets `{ port }`, sends
 * `cpu-start` / `cpu-stop`, and gets `{ cpuMs }` back.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

import { InMemorySessionService, LlmAgent } from '@adk/core';
import { createGemini } from '@adk/models-gemini';
import { createOpenAI } from '@adk/models-openai';
import { createAdkServer, listen } from '@adk/server';
import { WebSocket, WebSocketServer } from 'ws';

import { cpuMsSince, cpuNow } from './stats';

const [mode, providerUrl, dialect = 'gemini'] = process.argv.slice(2) as [
  'adk' | 'relay',
  string,
  'gemini' | 'openai' | undefined,
];

async function startAdk(): Promise<number> {
  const model =
    dialect === 'openai'
      ? createOpenAI({ apiKey: 'bench-key', baseURL: `${providerUrl}/v1` })('gpt-realtime')
      : createGemini({ apiKey: 'bench-key', baseURL: `${providerUrl}/v1beta` })(
          'gemini-live-2.5-flash-preview',
        );
  const app = createAdkServer({
    apps: { voice: { agent: new LlmAgent({ name: 'voice', model }), autoCreateSession: true } },
    sessionService: new InMemorySessionService(),
  });
  const server = await listen(app, { port: 0, host: '127.0.0.1' });
  return Number(new URL(server.url).port);
}

async function startRelay(): Promise<number> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server.on('connection', (client) => {
    const ws = providerUrl.replace('http', 'ws');
    const provider = new WebSocket(
      dialect === 'openai'
        ? `${ws}/v1/realtime?model=gpt-realtime`
        : `${ws}/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent?key=bench-key`,
    );
    provider.on('open', () =>
      provider.send(
        JSON.stringify(
          dialect === 'openai'
            ? { type: 'session.update', session: {} }
            : { setup: { model: 'models/gemini-live-2.5-flash-preview' } },
        ),
      ),
    );
    provider.on('message', (data: Buffer) => client.send(data.toString('utf8')));
    client.on('message', (data: Buffer) => {
      if (provider.readyState === WebSocket.OPEN) provider.send(data.toString('utf8'));
    });
    client.on('close', () => provider.close());
    provider.on('close', () => client.close());
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return (server.address() as { port: number }).port;
}

/**
 * ADK_BENCH_LIVE_PROFILE=<dir>: a CPU profile of the measured frames only (between `cpu-start`
 * and `cpu-stop`), written as `<dir>/live-<mode>.cpuprofile` for Chrome DevTools.
 */
const profileDir = process.env.ADK_BENCH_LIVE_PROFILE;
const inspector = profileDir ? new Session() : undefined;
const post = (method: string, params?: object) =>
  new Promise<unknown>((resolve, reject) =>
    inspector!.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  );

/**
 * ADK_BENCH_LIVE_CALLGRIND=1 (with the server run under `valgrind --tool=callgrind
 * --instr-atstart=no` through ADK_BENCH_LIVE_EXEC): count instructions over the measured frames
 * only, switching callgrind's instrumentation on at `cpu-start` and off at `cpu-stop`.
 */
const callgrind = process.env.ADK_BENCH_LIVE_CALLGRIND === '1';

const port = mode === 'adk' ? await startAdk() : await startRelay();
let cpu = cpuNow();
process.on('message', (message) => {
  if (message === 'cpu-start') {
    void (async () => {
      if (inspector) {
        inspector.connect();
        await post('Profiler.enable');
        await post('Profiler.start');
      }
      if (callgrind) execFileSync('callgrind_control', ['-i', 'on', String(process.pid)]);
      cpu = cpuNow();
      process.send!({ started: true });
    })();
  } else if (message === 'cpu-stop') {
    const cpuMs = cpuMsSince(cpu);
    if (callgrind) execFileSync('callgrind_control', ['-i', 'off', String(process.pid)]);
    void (async () => {
      if (inspector) {
        const { profile } = (await post('Profiler.stop')) as { profile: object };
        mkdirSync(profileDir!, { recursive: true });
        writeFileSync(join(profileDir!, `live-${mode}.cpuprofile`), JSON.stringify(profile));
      }
      process.send!({ cpuMs });
    })();
  } else if (message === 'exit') process.exit(0);
});
process.send!({ port });
