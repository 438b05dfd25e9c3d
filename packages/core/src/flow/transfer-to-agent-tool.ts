import type { AgentNode } from '../invocation/invocation-context';
import type { ToolContext } from '../context';
import { TransferNotAllowedError } from '../errors/transfer-not-allowed-error';
import {
  TRANSFER_TO_AGENT_TOOL_NAME,
  type TransferTarget,
} from '../instructions/transfer-instruction';
import type { FunctionDeclaration } from '../models';
import type { Tool } from '../tools/tool';

/** The transfer settings of an agent (satisfied by `LlmAgent`). */
interface TransferSettings {
  disallowTransferToParent?: boolean;
  disallowTransferToPeers?: boolean;
}

/** True for agents that take part in transfers as a parent (model-driven agents). */
function canHandBack(agent: AgentNode | undefined): boolean {
  return agent !== undefined && 'disallowTransferToParent' in agent;
}

/**
 * The agents `agent` may hand the conversation to, in this order: its sub-agents; its parent,
 * unless `disallowTransferToParent`; its peers (the parent's other sub-agents), unless
 * `disallowTransferToPeers`. Parent and peers only count when the parent is itself a model-driven
 * agent: below a workflow agent (sequential, parallel, loop) the workflow decides who runs next.
 */
export function transferTargets(agent: AgentNode): TransferTarget[] {
  const settings = agent as AgentNode & TransferSettings;
  const targets: TransferTarget[] = agent.subAgents.map((sub) => ({
    name: sub.name,
    description: sub.description,
    relation: 'sub-agent',
  }));
  const parent = agent.parentAgent;
  if (parent && canHandBack(parent)) {
    if (!settings.disallowTransferToParent) {
      targets.push({ name: parent.name, description: parent.description, relation: 'parent' });
    }
    if (!settings.disallowTransferToPeers) {
      for (const peer of parent.subAgents) {
        if (peer !== agent)
          targets.push({ name: peer.name, description: peer.description, relation: 'peer' });
      }
    }
  }
  return targets;
}

/**
 * The `transfer_to_agent` tool of one agent. Its `agent_name` parameter is an enum of the agent's
 * allowed targets, and a call naming anything else is refused when it runs
 * ({@link TransferNotAllowedError}, which the model sees as the function response): the enum guides
 * the model, the check enforces the rule. On success it sets `actions.transferToAgent`; the flow
 * then runs the target agent.
 *
 * The flow adds this tool by itself to every `LlmAgent` that has targets; there is no need to
 * list it in `tools`.
 */
export class TransferToAgentTool implements Tool {
  readonly name = TRANSFER_TO_AGENT_TOOL_NAME;
  readonly description =
    'Hand the conversation to another agent that is better suited to answer. Use only the agent names listed.';
  readonly targets: readonly TransferTarget[];
  readonly #agentName: string;
  readonly #declaration: FunctionDeclaration;

  constructor(agentName: string, targets: readonly TransferTarget[]) {
    this.#agentName = agentName;
    this.targets = [...targets];
    this.#declaration = {
      name: this.name,
      description: this.description,
      parameters: {
        type: 'object',
        properties: {
          agent_name: {
            type: 'string',
            enum: this.targets.map((target) => target.name),
            description: 'Name of the agent to transfer to.',
          },
        },
        required: ['agent_name'],
      },
    };
  }

  declaration(): FunctionDeclaration {
    return this.#declaration;
  }

  /** @throws TransferNotAllowedError when `agent_name` is not an allowed target. */
  async run(args: Record<string, unknown>, context: ToolContext): Promise<unknown> {
    const requested = args.agent_name;
    const allowed = this.targets.map((target) => target.name);
    if (typeof requested !== 'string' || !allowed.includes(requested)) {
      throw new TransferNotAllowedError({
        agentName: this.#agentName,
        requestedAgent:
          typeof requested === 'string' ? requested : JSON.stringify(requested ?? null),
        allowedTargets: allowed,
      });
    }
    context.actions.transferToAgent = requested;
    // The target answers next: the transferring agent does not summarise this result.
    context.actions.skipSummarization = true;
    return { transferred_to: requested };
  }
}

const toolCache = new WeakMap<AgentNode, TransferToAgentTool | null>();

/**
 * The transfer tool of `agent`, or `undefined` when it has no target. Computed once per agent
 * (agent trees are fixed once built).
 */
export function transferToolFor(agent: AgentNode): TransferToAgentTool | undefined {
  let tool = toolCache.get(agent);
  if (tool === undefined) {
    const targets = transferTargets(agent);
    tool = targets.length > 0 ? new TransferToAgentTool(agent.name, targets) : null;
    toolCache.set(agent, tool);
  }
  return tool ?? undefined;
}
