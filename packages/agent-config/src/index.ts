export { AgentConfigError } from './agent-config-error';
export { loadAgentConfig, type LoadAgentConfigOptions } from './build-agent';
export {
  agentConfig,
  agentConfigJsonSchema,
  type AgentConfig,
  type AgentRefConfig,
  type CodeConfig,
  type LlmAgentConfig,
} from './config-schema';
