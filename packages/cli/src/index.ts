/**
 * `@adk/cli`: the `adk` command (`adk run`, `adk api_server`, `adk web`) and its pieces, usable
 * from code.
 */
export { chat, type ChatOptions } from './commands/chat';
export { serve, type ServeHandle, type ServeOptions } from './commands/serve';
export { HELP, main } from './cli';
export { AgentLoadError, UsageError } from './errors';
export { appNameOf, findApps, isAgent, loadAgentFile } from './load-agents';
export { PROVIDER_PACKAGES, registerInstalledProviders } from './register-installed-providers';
export { openSessionStore, type OpenedSessionStore } from './session-store';
