import { InvalidArgumentError } from '@adk/core';
import { A2AService } from '@a2a-js/sdk/server/grpc';
import * as grpc from '@grpc/grpc-js';

import type { A2aServerApp } from '../server/create-a2a-server';
import { authenticatedA2aService } from './authenticated-service';

/** Options of {@link listenA2aGrpc}. */
export interface ListenA2aGrpcOptions {
  /** Port; 0 picks a free one (default: the port of the app's `grpcUrl`). */
  port?: number;
  /** Interface to bind (default `127.0.0.1`). */
  host?: string;
  /** TLS or other server credentials (default insecure: put TLS in front, or pass them here). */
  credentials?: grpc.ServerCredentials;
}

/** A listening gRPC transport of an A2A app. */
export interface RunningA2aGrpcServer {
  /** `host:port` */
  address: string;
  port: number;
  /** Stop accepting calls and end open ones. */
  close(): Promise<void>;
}

/**
 * Serve an A2A app (from `createA2aServer`) over gRPC too, with the A2A SDK's gRPC service on the
 * app's own request handler: the same tasks, the same runner, the same credentials (checked on
 * the call's metadata, `authorization` or the API-key header; a call without a valid one ends with
 * status 16, UNAUTHENTICATED). Create the app with `grpcUrl` so its
 * card announces the address clients reach.
 *
 * @example
 * ```ts
 * const app = createA2aServer({ agent, grpcUrl: '127.0.0.1:50051' });
 * await listenA2a(app, { port: 9000 });
 * await listenA2aGrpc(app);
 * ```
 * @throws InvalidArgumentError when the app has no `grpcUrl`.
 */
export async function listenA2aGrpc(
  app: A2aServerApp,
  options: ListenA2aGrpcOptions = {},
): Promise<RunningA2aGrpcServer> {
  if (app.grpcUrl === undefined) {
    throw new InvalidArgumentError({
      message: 'Create the A2A app with `grpcUrl` so that its card announces the gRPC address.',
      argument: 'grpcUrl',
    });
  }
  const port = options.port ?? Number(/:(\d+)$/.exec(app.grpcUrl)?.[1] ?? 0);
  const host = options.host ?? '127.0.0.1';
  const server = new grpc.Server();
  server.addService(A2AService, authenticatedA2aService(app));
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(
      `${host.includes(':') ? `[${host}]` : host}:${port}`,
      options.credentials ?? grpc.ServerCredentials.createInsecure(),
      (error, boundPort) => (error ? reject(error) : resolve(boundPort)),
    ),
  );
  return {
    address: `${host}:${bound}`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.tryShutdown(() => resolve());
        setTimeout(() => server.forceShutdown(), 2_000).unref();
      }),
  };
}
