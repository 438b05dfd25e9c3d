export { AgentLoadError } from './agent-load-error';
export { PortInUseError } from './port-in-use-error';
export { UsageError } from './usage-error';
