export { agentGraphDot, type AgentGraphOptions, type GraphHighlight } from './agent-graph';
export { describeAgent, findAgentByPath, type AgentDescription } from './describe-agent';
export {
  workflowGraphOf,
  workflowPathHighlights,
  workflowStartName,
  type WorkflowGraphShape,
} from './workflow-graph';
