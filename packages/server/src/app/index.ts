export {
  createAdkServer,
  DEFAULT_SHUTDOWN_DEADLINE_MS,
  type AdkServerApp,
} from './create-adk-server';
export { listen, type ListenOptions, type RunningServer } from './listen';
export type { RemoteJobChanges } from '../routes/job-watch';
export type {
  AdkAppDefinition,
  AdkServerOptions,
  AgentNode,
  AppRunner,
  AppRunRequest,
} from './types';
