import { createServer } from 'node:net';

import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { afterEach, describe, expect, it } from 'vitest';

import { A2aClient, createA2aServer, listenA2a, TaskState, type Task } from '../src';
import { listenA2aGrpc } from '../src/grpc';
import { echoAgent, partsText, userMessage } from './helpers';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function serve(
  options: Parameters<typeof createA2aServer>[0] extends infer O ? Partial<O> : never,
) {
  const grpcUrl = `127.0.0.1:${await freePort()}`;
  const app = createA2aServer({ agent: echoAgent().agent, grpcUrl, ...options });
  const http = await listenA2a(app, { port: 0 });
  const grpc = await listenA2aGrpc(app);
  cleanups.push(async () => {
    await grpc.close();
    await http.close();
  });
  return { http, grpc, grpcUrl };
}

describe('A2A over gRPC', () => {
  it('announces the gRPC interface, and a client on gRPC shares tasks with JSON-RPC', async () => {
    const { http, grpc, grpcUrl } = await serve({});
    expect(grpc.address).toBe(grpcUrl);
    const httpCalls: string[] = [];
    const client = await A2aClient.fromUrl(http.url, {
      transports: [new GrpcTransportFactory()],
      preferredTransports: ['GRPC'],
      fetch: (input, init) => {
        httpCalls.push(String(input));
        return fetch(input, init);
      },
    });
    expect(httpCalls).toHaveLength(1); // the card
    expect(
      client.card.supportedInterfaces.some(
        (entry) => entry.protocolBinding === 'GRPC' && entry.url === grpcUrl,
      ),
    ).toBe(true);
    const task = (await client.sendMessage({ message: userMessage('over grpc') })) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(partsText(task.artifacts[0]?.parts)).toBe('echo #1: over grpc');
    const cases: string[] = [];
    for await (const event of client.streamMessage({
      message: userMessage('streamed', { contextId: task.contextId }),
    })) {
      cases.push(String(event.payload?.$case));
    }
    expect(cases[0]).toBe('task');
    expect(cases).toContain('artifactUpdate');
    expect(httpCalls).toHaveLength(1); // nothing but the card went over HTTP
    // The same request handler: the JSON-RPC client reads the task the gRPC one created.
    const json = await A2aClient.fromUrl(http.url);
    expect((await json.getTask(task.id)).contextId).toBe(task.contextId);
  });

  it('checks the credentials of gRPC calls too', async () => {
    const { http } = await serve({ security: { bearer: 'sesame' } });
    let httpCalls = 0;
    const client = await A2aClient.fromUrl(http.url, {
      transports: [new GrpcTransportFactory()],
      preferredTransports: ['GRPC'],
      fetch: (input, init) => {
        httpCalls++;
        return fetch(input, init);
      },
    });
    await expect(client.sendMessage({ message: userMessage('anonymous') })).rejects.toThrow(
      /Authentication required/,
    );
    const task = (await client.sendMessage(
      { message: userMessage('with token') },
      { headers: { authorization: 'Bearer sesame' } },
    )) as Task;
    expect(partsText(task.artifacts[0]?.parts)).toBe('echo #1: with token');
    expect(httpCalls).toBe(1); // the card only: the calls went over gRPC
  });
});
