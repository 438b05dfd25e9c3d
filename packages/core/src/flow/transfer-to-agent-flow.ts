import { delegationToolOf } from '../tools/delegation-tool';
import type { AgentNode } from '../invocation/invocation-context';
import type { Event } from '../events';
import type { ResolvedTools } from './resolve-tools';
import { appendInstruction, type RequestProcessor } from './request-processors/types';
import type { StepPostprocessorInput } from './step-postprocessors';
import { transferInstruction } from '../instructions/transfer-instruction';
import type { Tool } from '../tools/tool';
import { TransferToAgentTool, transferToolFor } from './transfer-to-agent-tool';

const withTransfer = new WeakMap<ResolvedTools, ResolvedTools>();

/**
 * The tools of one step plus the agent's `transfer_to_agent` tool when it has transfer targets,
 * and the delegation tools its sub-agents offer (a call named after a task agent, see
 * `DELEGATION_TOOL`). A tool of the agent's own with the same name takes precedence. The result
 * is cached per resolved tool set, so agents without toolsets get the same object every step.
 */
export function withTransferTool(agent: AgentNode, resolved: ResolvedTools): ResolvedTools {
  let extended = withTransfer.get(resolved);
  if (extended) return extended;
  const added: Tool[] = [];
  const transfer = transferToolFor(agent);
  if (transfer) added.push(transfer);
  for (const sub of agent.subAgents) {
    const tool = delegationToolOf(sub);
    if (tool) added.push(tool);
  }
  const fresh = added.filter((tool) => !resolved.byName.has(tool.name));
  if (fresh.length === 0) {
    withTransfer.set(resolved, resolved);
    return resolved;
  }
  const byName = new Map<string, Tool>(resolved.byName);
  for (const tool of fresh) byName.set(tool.name, tool);
  extended = { tools: [...resolved.tools, ...fresh], byName, failures: resolved.failures };
  withTransfer.set(resolved, extended);
  return extended;
}

/**
 * Request processor appending the transfer block (the allowed targets and their descriptions) to
 * the system instruction when the step offers `transfer_to_agent`. It runs last, after the output
 * schema note, matching the order of `compileInstruction`.
 */
export const transferProcessor: RequestProcessor = {
  name: 'transfer',
  process(request, { tools }) {
    const tool = tools.find((candidate) => candidate instanceof TransferToAgentTool);
    if (!(tool instanceof TransferToAgentTool)) return request;
    return appendInstruction(request, transferInstruction(tool.targets));
  },
};

/**
 * Step postprocessor running the agent a step transferred to (`actions.transferToAgent`, set by
 * `transfer_to_agent` only after checking the target is allowed). The target runs inline, in the
 * same invocation and branch; the transferring agent's loop ends, because the transfer's response
 * event is final (`skipSummarization`) and the target's last event is its final answer. Returns
 * `undefined` when the step transferred nowhere (no generator is created).
 */
export function runTransferTarget(
  input: StepPostprocessorInput,
): AsyncGenerator<Event, void> | undefined {
  const { agent, ctx, event } = input;
  const targetName = event.actions.transferToAgent;
  if (!targetName || event.author !== agent.name) return undefined;
  const target = agent.rootAgent.findAgent(targetName);
  if (!target) return undefined;
  return target.run(ctx.createChild({ agent: target }));
}
