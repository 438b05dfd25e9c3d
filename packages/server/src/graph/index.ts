export { agentGraphDot, type AgentGraphOptions, type GraphHighlight } from './agent-graph';
