/**
 * `node --conditions=source --import tsx src/cluster/sse-write-bench.ts [--turns N] [--pairs N]`:
 * the server CPU of `/run_sse` turns written to Node's response directly (`listen` of
 * `@adk/server`) against the same app served through the web `ReadableStream` (`serve` of
 * `@hono/node-server`, which `listen` wraps), alternated in pairs. The server runs in a child
 * process (its CPU from `/proc`); the runner is scripted and in memory (no database), and yields the
 * events of the cluster load test's turn (tool call, tool result, answer), so what differs is the
 * HTTP and SSE path alone.
 */
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { createEvent, InMemorySessionService } from '@adk/core';
import type { Event } from '@adk/core';
import { createAdkServer, listen } from '@adk/server';

import { cpuMs } from './cluster-processes';

const USERS = 10;

/** `serve` of `@hono/node-server`, as far as used here. */
type Serve = (
  options: {
    fetch: (request: Request) => Response | Promise<Response>;
    port: number;
    hostname: string;
  },
  listening: (info: { port: number }) => void,
) => unknown;

async function runServer(mode: 'direct' | 'stream'): Promise<void> {
  const sessionService = new InMemorySessionService();
  const app = createAdkServer({
    apps: {
      bench: {
        agent: { name: 'agent', description: '', subAgents: [], tools: [{ name: 'tool' }] },
        runner: {
          async *run(request): AsyncGenerator<Event, void> {
            const session = (await sessionService.getSession({
              appName: 'bench',
              userId: request.userId,
              sessionId: request.sessionId,
            }))!;
            const invocationId = `inv-${Math.random().toString(36).slice(2)}`;
            const emit = async (event: Event) => {
              await sessionService.appendEvent({ session, event });
              return event;
            };
            await emit(createEvent({ invocationId, author: 'user', content: request.newMessage }));
            const text = request.newMessage.parts[0]?.text ?? '';
            yield await emit(
              createEvent({
                invocationId,
                author: 'agent',
                content: {
                  role: 'model',
                  parts: [{ functionCall: { id: 'c1', name: 'tool', args: { turn: text } } }],
                },
              }),
            );
            yield await emit(
              createEvent({
                invocationId,
                author: 'agent',
                content: {
                  role: 'user',
                  parts: [
                    { functionResponse: { id: 'c1', name: 'tool', response: { logged: text } } },
                  ],
                },
              }),
            );
            yield await emit(
              createEvent({
                invocationId,
                author: 'agent',
                content: { role: 'model', parts: [{ text: `ack ${text}` }] },
              }),
            );
          },
        },
      },
    },
    sessionService,
  });
  // `@hono/node-server` as `@adk/server` has it (not a dependency of this package).
  const { serve } = (await import(
    createRequire(fileURLToPath(import.meta.resolve('@adk/server'))).resolve('@hono/node-server')
  )) as { serve: Serve };
  const port =
    mode === 'direct'
      ? (await listen(app, { port: 0 })).port
      : await new Promise<number>((resolve) => {
          const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
            resolve(info.port),
          );
          void server;
        });
  process.send!({ port });
}

async function turns(port: number, count: number): Promise<void> {
  const base = `http://127.0.0.1:${port}`;
  await Promise.all(
    Array.from({ length: USERS }, async (_, user) => {
      const created = await fetch(`${base}/apps/bench/users/u${user}/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      const { id } = (await created.json()) as { id: string };
      for (let turn = 0; turn < count; turn++) {
        const response = await fetch(`${base}/run_sse`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            app_name: 'bench',
            user_id: `u${user}`,
            session_id: id,
            new_message: { role: 'user', parts: [{ text: `t${turn}` }] },
          }),
        });
        const text = await response.text();
        if (!text.includes(`ack t${turn}`)) throw new Error(`turn ${turn}: ${text}`);
      }
    }),
  );
}

async function measure(mode: 'direct' | 'stream', perUser: number, warmup: number) {
  const child = fork(fileURLToPath(import.meta.url), ['--server', mode], {
    execArgv: ['--conditions=source', '--import', 'tsx'],
  });
  const port = await new Promise<number>((resolve) =>
    child.once('message', (message) => resolve((message as { port: number }).port)),
  );
  await turns(port, warmup);
  const before = cpuMs(child.pid);
  await turns(port, perUser);
  const used = cpuMs(child.pid) - before;
  child.kill();
  return used / (perUser * USERS);
}

const { values } = parseArgs({
  options: {
    server: { type: 'string' },
    turns: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '100' },
    pairs: { type: 'string', default: '3' },
  },
});
if (values.server) await runServer(values.server as 'direct' | 'stream');
else {
  for (let pair = 0; pair < Number(values.pairs); pair++) {
    const order: Array<'direct' | 'stream'> =
      pair % 2 ? ['direct', 'stream'] : ['stream', 'direct'];
    const result: Record<string, number> = {};
    for (const mode of order)
      result[mode] = await measure(mode, Number(values.turns), Number(values.warmup));
    process.stdout.write(
      `${JSON.stringify({ load: loadavg()[0]!.toFixed(2), ...result, ratio: result.direct! / result.stream! })}\n`,
    );
  }
}
