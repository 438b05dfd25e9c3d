export {
  AdkAgentExecutor,
  defaultA2aUserId,
  type A2aRequestContext,
  type A2aUserIdResolver,
  type AdkAgentExecutorOptions,
} from './adk-agent-executor';
export { buildAgentCard, type AgentCardEndpoints, type BuildAgentCardOptions } from './agent-card';
export { BoundedTaskStore } from './bounded-task-store';
export { createA2aServer, type A2aServerApp, type A2aServerOptions } from './create-a2a-server';
export { listenA2a, type ListenA2aOptions, type RunningA2aServer } from './listen';
export {
  securityCardFields,
  type A2aAuthentication,
  type A2aCredentialVerifier,
  type A2aSecurityOptions,
} from './security';
export {
  signWebhookBody,
  verifyWebhookSignature,
  WebhookPushSender,
  type WebhookPushOptions,
} from './webhook-push-sender';
