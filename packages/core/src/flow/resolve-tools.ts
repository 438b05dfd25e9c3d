import type { FlowAgent } from './flow-agent';
import type { ReadonlyContext } from '../context';
import type { Tool, Toolset } from '../tools/tool';

/** A toolset that could not provide its tools in this step. */
export interface ToolsetFailure {
  toolset: string;
  error: unknown;
}

/** The tools of one step. */
export interface ResolvedTools {
  /** In declaration order: the agent's tools, toolsets expanded in place. */
  tools: readonly Tool[];
  byName: ReadonlyMap<string, Tool>;
  /** Toolsets that failed (their tools are missing, the others still work). */
  failures: readonly ToolsetFailure[];
}

const cache = new WeakMap<FlowAgent, ResolvedTools>();

/**
 * The tools of `agent` for one step. Toolsets are asked concurrently; a toolset that throws (or
 * provides a tool whose name is already taken) is reported in `failures` and the rest of the tools
 * stay available. Agents without toolsets get the same resolved object every step.
 */
export function resolveTools(
  agent: FlowAgent,
  context: ReadonlyContext,
): ResolvedTools | Promise<ResolvedTools> {
  if (agent.toolsets.length === 0) {
    let resolved = cache.get(agent);
    if (!resolved) {
      resolved = {
        tools: [...agent.staticTools.values()],
        byName: agent.staticTools,
        failures: [],
      };
      cache.set(agent, resolved);
    }
    return resolved;
  }
  return resolveToolsets(agent, context);
}

async function resolveToolsets(agent: FlowAgent, context: ReadonlyContext): Promise<ResolvedTools> {
  type Provided = { tools: Tool[] } | { error: unknown };
  const provided = new Map<unknown, Provided>(
    await Promise.all(
      agent.toolsets.map(async (toolset): Promise<[Toolset, Provided]> => {
        try {
          return [toolset, { tools: await toolset.getTools(context) }];
        } catch (error) {
          return [toolset, { error }];
        }
      }),
    ),
  );
  const tools: Tool[] = [];
  const byName = new Map<string, Tool>();
  const failures: ToolsetFailure[] = [];
  for (const entry of agent.tools) {
    const result = provided.get(entry);
    if (!result) {
      const tool = entry as Tool;
      tools.push(tool);
      byName.set(tool.name, tool);
      continue;
    }
    const toolsetName = (entry as { name: string }).name;
    if ('error' in result) {
      failures.push({ toolset: toolsetName, error: result.error });
      continue;
    }
    for (const tool of result.tools) {
      if (byName.has(tool.name) || agent.staticTools.has(tool.name)) {
        failures.push({
          toolset: toolsetName,
          error: `tool name "${tool.name}" is already taken; the toolset's tool was skipped`,
        });
        continue;
      }
      tools.push(tool);
      byName.set(tool.name, tool);
    }
  }
  return { tools, byName, failures };
}
