import type { Tool } from './tool';

/**
 * Mark of an agent that a parent `LlmAgent` may delegate to by calling a function named after it
 * (Python ADK's task delegation from a chat agent, as `@adk/workflow`'s `TaskAgent` does): the
 * method under this symbol returns that tool, which the parent is offered next to
 * `transfer_to_agent` (none when it returns `undefined`).
 */
export const DELEGATION_TOOL: unique symbol = Symbol.for('adk.agent.delegationTool');

/** The delegation tool `agent` offers its parent (see {@link DELEGATION_TOOL}), if any. */
export function delegationToolOf(agent: unknown): Tool | undefined {
  const offer = (agent as Record<symbol, unknown> | null)?.[DELEGATION_TOOL];
  return typeof offer === 'function' ? (offer.call(agent) as Tool | undefined) : undefined;
}
