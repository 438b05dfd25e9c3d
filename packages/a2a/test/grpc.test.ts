import { createServer } from 'node:net';

import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { A2AService } from '@a2a-js/sdk/server/grpc';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';

import {
  A2aClient,
  A2aTransportError,
  createA2aServer,
  listenA2a,
  TaskState,
  type Task,
} from '../src';
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
    const refused = await client
      .sendMessage({ message: userMessage('anonymous') })
      .catch((e: unknown) => e);
    // The same typed error as over HTTP (401), not an internal error.
    expect(A2aTransportError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ status: 401, retryable: false });
    expect(String(refused)).toMatch(/Authentication required/);
    const task = (await client.sendMessage(
      { message: userMessage('with token') },
      { headers: { authorization: 'Bearer sesame' } },
    )) as Task;
    expect(partsText(task.artifacts[0]?.parts)).toBe('echo #1: with token');
    expect(httpCalls).toBe(1); // the card only: the calls went over gRPC
  });

  it('ends calls without a valid credential with status 16 (UNAUTHENTICATED), unary and streamed', async () => {
    const { grpcUrl } = await serve({ security: { bearer: 'sesame' } });
    const Client = grpc.makeGenericClientConstructor(A2AService, 'A2AService');
    const raw = new Client(grpcUrl, grpc.credentials.createInsecure()) as grpc.Client &
      Record<string, (...args: unknown[]) => unknown>;
    cleanups.push(async () => raw.close());
    const wrong = new grpc.Metadata();
    wrong.set('authorization', 'Bearer wrong');
    const unary = await new Promise<grpc.ServiceError | null>((resolve) =>
      raw.getTask!({ id: 'any', tenant: '' }, wrong, (error: grpc.ServiceError | null) =>
        resolve(error),
      ),
    );
    expect(unary).toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    expect(unary?.details).toMatch(/Authentication required/);
    const stream = raw.subscribeToTask!(
      { id: 'any', tenant: '' },
      new grpc.Metadata(),
    ) as grpc.ClientReadableStream<unknown>;
    const streamed = await new Promise<grpc.ServiceError>((resolve) => {
      stream.on('data', () => undefined);
      stream.on('error', resolve);
    });
    expect(streamed.code).toBe(grpc.status.UNAUTHENTICATED);
  });
});
