import type { User } from '@a2a-js/sdk/server';
import { A2AService, grpcService } from '@a2a-js/sdk/server/grpc';
import * as grpc from '@grpc/grpc-js';

import type { A2aServerApp } from '../server/create-a2a-server';

type Handler = (...args: unknown[]) => unknown;

/** The headers of a call's metadata, as the HTTP credential check reads them. */
function headersOf(call: { metadata: grpc.Metadata }): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(call.metadata.getMap())) {
    headers.set(name, value.toString());
  }
  return headers;
}

const REFUSED = {
  code: grpc.status.UNAUTHENTICATED,
  details: 'Authentication required: see the agent card.',
};

/**
 * The SDK's gRPC service on the app's request handler, behind the app's credential check. The
 * check runs before the SDK's handler, so a call without a valid credential ends with status 16
 * (UNAUTHENTICATED), as HTTP answers 401; an error thrown from the SDK's `userBuilder` would
 * reach the client as status 2 (UNKNOWN).
 */
export function authenticatedA2aService(app: A2aServerApp): grpc.UntypedServiceImplementation {
  const users = new WeakMap<object, User>();
  const inner = grpcService({
    requestHandler: app.requestHandler,
    // Only reached for calls whose user was checked below.
    userBuilder: async (call) => users.get(call) as User,
  }) as unknown as Record<string, Handler>;
  const guarded: grpc.UntypedServiceImplementation = {};
  for (const [name, definition] of Object.entries(A2AService)) {
    const handler = inner[name];
    if (handler === undefined) continue;
    guarded[name] = definition.responseStream
      ? async (call: grpc.ServerWritableStream<unknown, unknown>) => {
          const user = await app.authenticate(headersOf(call));
          if (!user) {
            // How grpc-js ends a server stream with a status (the SDK's service does the same).
            call.emit('error', REFUSED);
            return void call.end();
          }
          users.set(call, user);
          return handler(call);
        }
      : async (
          call: grpc.ServerUnaryCall<unknown, unknown>,
          callback: grpc.sendUnaryData<unknown>,
        ) => {
          const user = await app.authenticate(headersOf(call));
          if (!user) return callback(REFUSED, null);
          users.set(call, user);
          return handler(call, callback);
        };
  }
  return guarded;
}
