/**
 * `@adk/cli`: the `adk` command (`adk run`, `adk api_server`, `adk web`, `adk create`) and its
 * pieces, usable from code.
 */
export {
  chat,
  COMMANDS,
  commandHelp,
  EVAL_HELP,
  evalCommand,
  evalCommandModule,
  serve,
  type ChatOptions,
  type CommandInput,
  type CommandModule,
  type CommandOption,
  type EvalCommandIo,
  type ServeHandle,
  type ServeOptions,
} from './commands';
export { HELP, main } from './cli';
export { loadDotEnv } from './dot-env';
export { AgentLoadError, PortInUseError, UsageError } from './errors';
export {
  appNameOf,
  findApps,
  isAgent,
  loadAgentFile,
  loadAgentModule,
  loadApps,
  type LoadedAgentModule,
  type SkippedApp,
} from './load-agents';
export { createProject, type CreateProjectOptions } from './scaffold';
export {
  defaultArtifactsDir,
  defaultJobStoreUrl,
  openJobService,
  openArtifactStore,
  openMemoryStore,
  type JobServiceOptions,
  type OpenedArtifactStore,
  type OpenedJobService,
  type OpenedMemoryStore,
} from './services';
export { PROVIDER_PACKAGES, registerInstalledProviders } from './register-installed-providers';
export {
  openSessionStore,
  type OpenedSessionStore,
  type OpenSessionStoreOptions,
} from './session-store';
export { mcp, type McpCommandOptions } from './commands/mcp';

export { runWorker, type WorkerHandle, type WorkerOptions } from './commands/worker';
export { openJobStore } from './services';
export {
  DEFAULT_NODE_IMAGE_TAG,
  renderComposeFile,
  renderDockerfile,
  renderDockerignore,
  renderHaproxyConfig,
  writeDockerDeployment,
  type DockerDeploymentOptions,
  type HaproxyConfigOptions,
  type HaproxyServers,
  type WriteDockerDeploymentOptions,
  type WrittenDockerDeployment,
} from './deploy';
