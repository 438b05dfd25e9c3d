export { AgentLoadError } from './agent-load-error';
export { UsageError } from './usage-error';
