import { LlmAgent, type BaseAgent } from '@adk/core';

import { A2A_PROTOCOL_VERSION, type A2aAgentCard, type A2aAgentSkill } from '../protocol/types';

/** Options of {@link buildAgentCard}: any card field overrides the generated one. */
export type BuildAgentCardOptions = Partial<A2aAgentCard> & {
  /** The JSON-RPC endpoint clients call (required: where the agent is served). */
  url: string;
};

/**
 * The agent card of an ADK agent: its name and description, streaming capability, and one skill
 * for the agent itself, one per tool of an `LlmAgent` (dynamic toolsets are not listed) and one
 * per sub-agent (recursively). Every field can be overridden.
 *
 * @example
 * ```ts
 * const card = buildAgentCard(agent, { url: 'https://agents.example.com/a2a', version: '1.2.0' });
 * ```
 */
export function buildAgentCard(agent: BaseAgent, options: BuildAgentCardOptions): A2aAgentCard {
  const skills: A2aAgentSkill[] = [];
  collectSkills(agent, true, skills);
  return {
    protocolVersion: A2A_PROTOCOL_VERSION,
    name: agent.name,
    description: agent.description ?? `The ${agent.name} agent.`,
    preferredTransport: 'JSONRPC',
    version: '0.1.0',
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills,
    supportsAuthenticatedExtendedCard: false,
    ...options,
  };
}

function collectSkills(agent: BaseAgent, isRoot: boolean, skills: A2aAgentSkill[]): void {
  skills.push({
    id: agent.name,
    name: agent.name,
    description: agent.description ?? `The ${agent.name} agent.`,
    tags: [isRoot ? 'agent' : 'sub-agent'],
  });
  if (agent instanceof LlmAgent) {
    for (const tool of agent.staticTools.values()) {
      skills.push({
        id: `${agent.name}.${tool.name}`,
        name: tool.name,
        description: tool.description,
        tags: ['tool'],
      });
    }
  }
  for (const sub of agent.subAgents) collectSkills(sub, false, skills);
}
