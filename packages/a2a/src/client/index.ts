export { A2aClient, type A2aCallOptions } from './a2a-client';
export { checkAgentCard, fetchAgentCard, type A2aHttpOptions } from './fetch-agent-card';
