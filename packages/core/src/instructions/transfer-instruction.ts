/** Name of the tool an agent calls to hand the conversation to another agent. */
export const TRANSFER_TO_AGENT_TOOL_NAME = 'transfer_to_agent';

/** How a transfer target relates to the agent that may transfer to it. */
export type TransferRelation = 'sub-agent' | 'parent' | 'peer';

/** An agent the current agent may hand the conversation to. */
export interface TransferTarget {
  name: string;
  description?: string;
  relation: TransferRelation;
}

/**
 * The concise transfer block of a system instruction: one line per allowed target with its
 * description, the parent marked as such. Empty when there is no target. The tool's `agent_name`
 * parameter is enum-constrained to the same names, which is the real guard; this text only tells
 * the model what each target is for.
 *
 * @example
 * ```ts
 * transferInstruction([{ name: 'weather', description: 'Handles weather questions', relation: 'sub-agent' }]);
 * // You can delegate tasks to the following agents using the transfer_to_agent tool:
 * // - weather: Handles weather questions
 * // To transfer to an agent, call the transfer_to_agent tool with the agent's name.
 * ```
 */
export function transferInstruction(targets: readonly TransferTarget[]): string {
  if (targets.length === 0) return '';
  const lines = targets.map((target) => {
    const label = target.relation === 'parent' ? `${target.name} (your parent agent)` : target.name;
    const description = target.description?.trim();
    return description ? `- ${label}: ${description}` : `- ${label}`;
  });
  return [
    `You can delegate tasks to the following agents using the ${TRANSFER_TO_AGENT_TOOL_NAME} tool:`,
    ...lines,
    `To transfer to an agent, call the ${TRANSFER_TO_AGENT_TOOL_NAME} tool with the agent's name.`,
  ].join('\n');
}
