/**
 * `@adk/a2a/grpc`: an A2A app over gRPC too (needs `@grpc/grpc-js` and `@bufbuild/protobuf`).
 * Clients: pass `new GrpcTransportFactory()` of `@a2a-js/sdk/client/grpc` in `A2aClient`'s
 * `transports`.
 */
export {
  listenA2aGrpc,
  type ListenA2aGrpcOptions,
  type RunningA2aGrpcServer,
} from './listen-a2a-grpc';
