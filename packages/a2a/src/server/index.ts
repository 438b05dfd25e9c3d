export { buildAgentCard, type BuildAgentCardOptions } from './agent-card';
export { createA2aServer, type A2aServerApp, type A2aServerOptions } from './create-a2a-server';
export { listenA2a, type ListenA2aOptions, type RunningA2aServer } from './listen';
export {
  defaultA2aUserId,
  type A2aRequestContext,
  type A2aUserIdResolver,
} from './request-handler';
