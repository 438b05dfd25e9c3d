import { LlmAgent, type BaseAgent } from '@adk/core';
import type { AgentCard, AgentInterface, AgentSkill } from '@a2a-js/sdk';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';

/** Where the agent is reached: its JSON-RPC endpoint and the root of its HTTP+JSON (REST) routes. */
export interface AgentCardEndpoints {
  /** The JSON-RPC endpoint. */
  jsonRpcUrl: string;
  /** The base URL of the REST routes (`<restUrl>/message:send`...); omitted: no REST interface. */
  restUrl?: string;
  /** The gRPC address (`host:port`); omitted: no gRPC interface. */
  grpcUrl?: string;
}

/** Options of {@link buildAgentCard}: any card field overrides the generated one. */
export type BuildAgentCardOptions = Partial<AgentCard> & AgentCardEndpoints;

/**
 * The A2A 1.0 agent card of an ADK agent: its name and description, streaming capability, one
 * skill for the agent itself, one per tool of an `LlmAgent` (dynamic toolsets are not listed) and
 * one per sub-agent (recursively). `supportedInterfaces` lists JSON-RPC (and REST when given) for
 * protocol 1.0 first, then the same URLs for 0.3 clients. Every field can be overridden.
 *
 * @example
 * ```ts
 * const card = buildAgentCard(agent, { jsonRpcUrl: 'https://agents.example.com/a2a', version: '1.2.0' });
 * ```
 */
export function buildAgentCard(agent: BaseAgent, options: BuildAgentCardOptions): AgentCard {
  const { jsonRpcUrl, restUrl, grpcUrl, ...overrides } = options;
  const skills: AgentSkill[] = [];
  collectSkills(agent, true, skills);
  const current: AgentInterface[] = [
    { url: jsonRpcUrl, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
  ];
  if (restUrl !== undefined) {
    current.push({
      url: restUrl,
      protocolBinding: 'HTTP+JSON',
      protocolVersion: '1.0',
      tenant: '',
    });
  }
  if (grpcUrl !== undefined) {
    current.push({ url: grpcUrl, protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: '' });
  }
  return {
    name: agent.name,
    description: agent.description ?? `The ${agent.name} agent.`,
    // 0.3 mirrors for JSON-RPC and REST (gRPC clients of 0.3 use a different service).
    supportedInterfaces: duplicateInterfacesForLegacy(
      current,
      current.map((entry) => entry.protocolBinding).filter((binding) => binding !== 'GRPC'),
    ),
    provider: undefined,
    version: '0.1.0',
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [],
      extendedAgentCard: false,
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills,
    signatures: [],
    ...overrides,
  };
}

function skill(id: string, name: string, description: string, tag: string): AgentSkill {
  return {
    id,
    name,
    description,
    tags: [tag],
    examples: [],
    inputModes: [],
    outputModes: [],
    securityRequirements: [],
  };
}

function collectSkills(agent: BaseAgent, isRoot: boolean, skills: AgentSkill[]): void {
  const description = agent.description ?? `The ${agent.name} agent.`;
  skills.push(skill(agent.name, agent.name, description, isRoot ? 'agent' : 'sub-agent'));
  if (agent instanceof LlmAgent) {
    for (const tool of agent.staticTools.values()) {
      skills.push(skill(`${agent.name}.${tool.name}`, tool.name, tool.description, 'tool'));
    }
  }
  for (const sub of agent.subAgents) collectSkills(sub, false, skills);
}
