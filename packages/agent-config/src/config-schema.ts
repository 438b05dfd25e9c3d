import { z } from 'zod';

/**
 * The agent config format of Python ADK (`root_agent.yaml`), field for field, validated as its
 * loader validates (unknown fields refused, `generate_content_config` keys in snake_case or
 * camelCase, as its pydantic models accept both).
 */

/** A reference to code: `name` of an exported value, optionally called with `args`. */
export const codeConfig = z
  .object({
    name: z.string().min(1),
    args: z
      .array(z.object({ name: z.string().optional(), value: z.unknown() }).strict())
      .optional(),
  })
  .strict();
export type CodeConfig = z.infer<typeof codeConfig>;

/** A sub-agent: another config file (relative to this one), or an agent exported by code. */
export const agentRefConfig = z
  .object({ config_path: z.string().min(1).optional(), code: z.string().min(1).optional() })
  .strict()
  .refine((ref) => (ref.config_path === undefined) !== (ref.code === undefined), {
    message: 'give exactly one of "config_path" and "code"',
  });
export type AgentRefConfig = z.infer<typeof agentRefConfig>;

const baseFields = {
  name: z.string().min(1),
  description: z.string().optional(),
  sub_agents: z.array(agentRefConfig).optional(),
  before_agent_callbacks: z.array(codeConfig).optional(),
  after_agent_callbacks: z.array(codeConfig).optional(),
};

/** `generate_content_config`: Gemini's GenerateContentConfig fields, either spelling. */
export const generateContentConfig = z.record(z.string(), z.unknown());

export const llmAgentConfig = z
  .object({
    agent_class: z.enum(['LlmAgent', 'google.adk.agents.LlmAgent', 'Agent']).optional(),
    ...baseFields,
    model: z.string().optional(),
    model_code: codeConfig.optional(),
    instruction: z.string(),
    static_instruction: z.string().optional(),
    global_instruction: z.string().optional(),
    disallow_transfer_to_parent: z.boolean().optional(),
    disallow_transfer_to_peers: z.boolean().optional(),
    input_schema: codeConfig.optional(),
    output_schema: codeConfig.optional(),
    output_key: z.string().optional(),
    include_contents: z.enum(['default', 'none']).optional(),
    tools: z.array(codeConfig).optional(),
    before_model_callbacks: z.array(codeConfig).optional(),
    after_model_callbacks: z.array(codeConfig).optional(),
    before_tool_callbacks: z.array(codeConfig).optional(),
    after_tool_callbacks: z.array(codeConfig).optional(),
    generate_content_config: generateContentConfig.optional(),
  })
  .strict()
  .refine((config) => !(config.model && config.model_code), {
    message: 'only one of "model" and "model_code" may be set',
  });

const workflowAgentConfig = <T extends string>(agentClass: readonly [T, ...T[]]) =>
  z.object({ agent_class: z.enum(agentClass), ...baseFields }).strict();

export const sequentialAgentConfig = workflowAgentConfig([
  'SequentialAgent',
  'google.adk.agents.SequentialAgent',
]);
export const parallelAgentConfig = workflowAgentConfig([
  'ParallelAgent',
  'google.adk.agents.ParallelAgent',
]);
export const loopAgentConfig = z
  .object({
    agent_class: z.enum(['LoopAgent', 'google.adk.agents.LoopAgent']),
    ...baseFields,
    max_iterations: z.number().int().positive().optional(),
  })
  .strict();

/** Any agent config (LlmAgent when `agent_class` is absent). */
export const agentConfig = z.union([
  llmAgentConfig,
  sequentialAgentConfig,
  parallelAgentConfig,
  loopAgentConfig,
]);
export type LlmAgentConfig = z.infer<typeof llmAgentConfig>;
export type AgentConfig = z.infer<typeof agentConfig>;

/** Which schema validates a document, from its `agent_class` (as Python's loader dispatches). */
export function schemaFor(agentClass: unknown): z.ZodType {
  const name =
    typeof agentClass === 'string' ? agentClass.replace(/^google\.adk\.agents\./, '') : 'LlmAgent';
  switch (name) {
    case 'SequentialAgent':
      return sequentialAgentConfig;
    case 'ParallelAgent':
      return parallelAgentConfig;
    case 'LoopAgent':
      return loopAgentConfig;
    default:
      return llmAgentConfig;
  }
}

/** The JSON Schema of the format, for editors (`# yaml-language-server: $schema=...`). */
export function agentConfigJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(agentConfig, { unrepresentable: 'any', io: 'input' }) as Record<
    string,
    unknown
  >;
  return { ...schema, title: 'ADK agent config (root_agent.yaml)' };
}
