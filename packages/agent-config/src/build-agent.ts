import { basename, dirname, relative, resolve, sep } from 'node:path';
import { realpathSync } from 'node:fs';

import {
  exitLoopTool,
  LlmAgent,
  LoopAgent,
  ParallelAgent,
  SequentialAgent,
  type BaseAgent,
  type GenerateContentConfig,
  type Model,
  type Tool,
  type Toolset,
  urlContextTool,
  webSearchTool,
} from '@adk/core';
import type { z } from 'zod';

import { AgentConfigError } from './agent-config-error';
import { applyArgs, resolveCodeRef, type RefContext } from './code-ref';
import {
  schemaFor,
  type AgentRefConfig,
  type CodeConfig,
  type LlmAgentConfig,
} from './config-schema';
import { generateContentConfigOf } from './generate-content-config';
import { readConfigDocument, type ConfigDocument } from './yaml-document';

/** Options of {@link loadAgentConfig}. */
export interface LoadAgentConfigOptions {
  /**
   * The folder Python-style dotted references (`my_agent.tools.x`) are resolved from besides the
   * config's own folder. Default: the parent of the config's folder (the agents folder).
   */
  root?: string;
}

/**
 * Build the agent tree a YAML agent config describes (Python ADK's `root_agent.yaml` format):
 * `LlmAgent` (the default `agent_class`), `SequentialAgent`, `ParallelAgent` and `LoopAgent`;
 * sub-agents from other config files (`config_path`, inside the agent's folder) or from code;
 * tools, callbacks, schemas and models by reference to exported code.
 *
 * @throws AgentConfigError naming the file and line of the first problem.
 */
export async function loadAgentConfig(
  file: string,
  options: LoadAgentConfigOptions = {},
): Promise<BaseAgent> {
  const path = resolve(file);
  return build(path, options.root ?? dirname(dirname(path)), new Set());
}

async function build(file: string, root: string, seen: Set<string>): Promise<BaseAgent> {
  if (seen.has(file))
    throw new AgentConfigError({ file, problem: 'sub_agents form a cycle through this file.' });
  seen.add(file);
  const document = await readConfigDocument(file);
  const raw = document.value;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new AgentConfigError({
      file,
      line: 1,
      problem: 'an agent config must be a YAML mapping.',
    });
  }
  const agentClass = (raw as { agent_class?: unknown }).agent_class;
  const parsed = schemaFor(agentClass).safeParse(raw);
  if (!parsed.success) throw validationError(document, parsed.error);
  const config = parsed.data as LlmAgentConfig & { agent_class?: string; max_iterations?: number };
  const context = (path: ReadonlyArray<string | number>): RefContext => ({
    dir: dirname(file),
    root,
    fail: (problem, cause) => {
      throw new AgentConfigError({
        file,
        line: document.lineOf(path),
        path: path.join('.'),
        problem,
        cause,
      });
    },
  });
  const resolveRef = async (
    code: CodeConfig,
    path: ReadonlyArray<string | number>,
  ): Promise<unknown> => {
    const refContext = context(path);
    const value = await resolveCodeRef(code.name, refContext);
    return applyArgs(value, code.args, (problem) => refContext.fail(`"${code.name}" ${problem}`));
  };
  const many = async (
    list: CodeConfig[] | undefined,
    key: string,
  ): Promise<unknown[] | undefined> =>
    list === undefined
      ? undefined
      : Promise.all(list.map((code, index) => resolveRef(code, [key, index])));

  const subAgents: BaseAgent[] = [];
  for (const [index, ref] of (config.sub_agents ?? []).entries()) {
    subAgents.push(await subAgent(ref, file, root, seen, context(['sub_agents', index])));
  }
  const base = {
    name: config.name,
    ...(config.description === undefined ? {} : { description: config.description }),
    ...(subAgents.length > 0 ? { subAgents } : {}),
    ...optional(
      'beforeAgentCallback',
      await many(config.before_agent_callbacks, 'before_agent_callbacks'),
    ),
    ...optional(
      'afterAgentCallback',
      await many(config.after_agent_callbacks, 'after_agent_callbacks'),
    ),
  };
  const className = (config.agent_class ?? 'LlmAgent').replace(/^google\.adk\.agents\./, '');
  seen.delete(file);
  switch (className) {
    case 'SequentialAgent':
      return new SequentialAgent(base as never);
    case 'ParallelAgent':
      return new ParallelAgent(base as never);
    case 'LoopAgent':
      return new LoopAgent({
        ...(base as { name: string }),
        ...(config.max_iterations ? { maxIterations: config.max_iterations } : {}),
      } as never);
    default:
      break;
  }
  if (config.input_schema !== undefined) {
    context(['input_schema']).fail(
      'input_schema is not supported: an LlmAgent here takes its input as a message.',
    );
  }
  const tools: Array<Tool | Toolset> = [];
  for (const [index, code] of (config.tools ?? []).entries()) {
    tools.push(await tool(code, context(['tools', index]), resolveRef, ['tools', index]));
  }
  const model = config.model_code
    ? ((await resolveRef(config.model_code, ['model_code'])) as Model)
    : config.model;
  const outputSchema = config.output_schema
    ? ((await resolveRef(config.output_schema, ['output_schema'])) as z.ZodType)
    : undefined;
  let generateContentConfig: GenerateContentConfig | undefined;
  if (config.generate_content_config) {
    generateContentConfig = generateContentConfigOf(
      config.generate_content_config,
      (key, problem) => context(['generate_content_config', key]).fail(problem),
    );
  }
  try {
    return new LlmAgent({
      ...(base as { name: string }),
      instruction: config.instruction,
      ...(config.static_instruction === undefined
        ? {}
        : { staticInstruction: config.static_instruction }),
      ...(model === undefined ? {} : { model }),
      ...(config.global_instruction === undefined
        ? {}
        : { globalInstruction: config.global_instruction }),
      ...(tools.length > 0 ? { tools } : {}),
      ...(outputSchema ? { outputSchema } : {}),
      ...(config.output_key === undefined ? {} : { outputKey: config.output_key }),
      ...(config.include_contents === undefined
        ? {}
        : { includeContents: config.include_contents }),
      ...(config.disallow_transfer_to_parent === undefined
        ? {}
        : { disallowTransferToParent: config.disallow_transfer_to_parent }),
      ...(config.disallow_transfer_to_peers === undefined
        ? {}
        : { disallowTransferToPeers: config.disallow_transfer_to_peers }),
      ...(generateContentConfig ? { generateContentConfig } : {}),
      ...optional(
        'beforeModelCallback',
        await many(config.before_model_callbacks, 'before_model_callbacks'),
      ),
      ...optional(
        'afterModelCallback',
        await many(config.after_model_callbacks, 'after_model_callbacks'),
      ),
      ...optional(
        'beforeToolCallback',
        await many(config.before_tool_callbacks, 'before_tool_callbacks'),
      ),
      ...optional(
        'afterToolCallback',
        await many(config.after_tool_callbacks, 'after_tool_callbacks'),
      ),
    } as never);
  } catch (cause) {
    throw new AgentConfigError({
      file,
      line: 1,
      problem: cause instanceof Error ? cause.message : String(cause),
      cause,
    });
  }
}

function optional(key: string, value: unknown[] | undefined): Record<string, unknown> {
  return value === undefined || value.length === 0 ? {} : { [key]: value };
}

async function subAgent(
  ref: AgentRefConfig,
  file: string,
  root: string,
  seen: Set<string>,
  context: RefContext,
): Promise<BaseAgent> {
  if (ref.config_path !== undefined) {
    if (ref.config_path.startsWith('/'))
      context.fail(`config_path must be relative, got "${ref.config_path}".`);
    const agentDir = realpathSync(dirname(file));
    const target = resolve(agentDir, ref.config_path);
    const inside = relative(agentDir, target);
    if (inside.startsWith('..') || inside.startsWith(sep)) {
      context.fail(`config_path "${ref.config_path}" leads outside the agent's folder.`);
    }
    return build(target, root, seen);
  }
  const value = await resolveCodeRef(ref.code!, context);
  if (!isAgent(value)) context.fail(`"${ref.code}" is not an agent.`);
  return value as BaseAgent;
}

function isAgent(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { name?: unknown }).name === 'string' &&
    typeof (value as { run?: unknown }).run === 'function'
  );
}

/** Python's built-in tool names this package can provide without code. */
const BUILT_IN_TOOLS: Record<string, () => Promise<Tool | Toolset>> = {
  exit_loop: () => Promise.resolve(exitLoopTool),
  // Provider-side tools (the model's provider runs them; see `ProviderTool` in @adk/core).
  google_search: () => Promise.resolve(webSearchTool()),
  url_context: () => Promise.resolve(urlContextTool()),
  load_memory: async () =>
    (await importOptional('@adk/memory', 'load_memory')).loadMemoryTool as Tool,
  preload_memory: async () =>
    (await importOptional('@adk/memory', 'preload_memory')).preloadMemoryTool as Tool,
  load_artifacts: async () =>
    (await importOptional('@adk/artifacts', 'load_artifacts')).loadArtifactsTool as Tool,
};

async function importOptional(specifier: string, tool: string): Promise<Record<string, unknown>> {
  try {
    return (await import(specifier)) as Record<string, unknown>;
  } catch (cause) {
    throw new AgentConfigError({
      file: basename(specifier),
      problem: `the built-in tool "${tool}" needs ${specifier} installed.`,
      cause,
    });
  }
}

const PROVIDER_TOOLS = new Set([
  'enterprise_web_search',
  'vertex_ai_search',
  'google_maps_grounding',
  'built_in_code_execution',
]);

async function tool(
  code: CodeConfig,
  context: RefContext,
  resolveRef: (code: CodeConfig, path: ReadonlyArray<string | number>) => Promise<unknown>,
  path: ReadonlyArray<string | number>,
): Promise<Tool | Toolset> {
  const builtIn = BUILT_IN_TOOLS[code.name];
  if (builtIn) return builtIn();
  if (PROVIDER_TOOLS.has(code.name)) {
    context.fail(
      `"${code.name}" is a provider-side tool of Python ADK, not available in this configuration format yet.`,
    );
  }
  if (!code.name.includes('.') && !code.name.includes('#')) {
    context.fail(
      `unknown built-in tool "${code.name}" (built-ins: ${Object.keys(BUILT_IN_TOOLS).join(', ')}); reference your own as "module.export".`,
    );
  }
  const value = await resolveRef(code, path);
  const candidate = value as Partial<Tool> & Partial<Toolset>;
  if (
    candidate &&
    (typeof candidate.getTools === 'function' ||
      (typeof candidate.run === 'function' && typeof candidate.declaration === 'function'))
  ) {
    return value as Tool | Toolset;
  }
  context.fail(
    `"${code.name}" is not a tool or toolset (wrap a function in a FunctionTool and export that).`,
  );
}

function validationError(document: ConfigDocument, error: z.ZodError): AgentConfigError {
  const issue = error.issues[0]!;
  const path = [...issue.path] as Array<string | number>;
  let problem = issue.message;
  if (issue.code === 'unrecognized_keys') {
    const keys = (issue as { keys: string[] }).keys;
    path.push(keys[0]!);
    problem = `unknown field${keys.length > 1 ? 's' : ''} ${keys.map((key) => `"${key}"`).join(', ')}.`;
  } else if (issue.code === 'invalid_type' && issue.message.includes('received undefined')) {
    problem = `"${String(path.at(-1))}" is required.`;
  }
  return new AgentConfigError({
    file: document.file,
    line: document.lineOf(path),
    path: path.join('.'),
    problem,
    cause: error,
  });
}
