import { InvocationReadonlyContext, type Tool, type Toolset } from '@adk/core';

import { NodeFailedError } from '../errors/node-failed-error';
import { BaseNode, type BaseNodeOptions } from './base-node';
import type { NodeContext } from './node-context';
import { runToolAsNode, toolArguments } from './tool-node';

/** Options of {@link ToolsetNode}. */
export interface ToolsetNodeOptions extends Partial<BaseNodeOptions> {
  /** The toolset the tool is found in (an MCP toolset, an OpenAPI toolset...). */
  toolset: Toolset;
  /** The tool's name, as the toolset lists it. */
  toolName: string;
}

/**
 * A node running a named tool of a toolset (Python ADK's `ToolsetNode`): the tool is looked up
 * when the node runs, not when the graph is built, so toolsets that only know their tools once
 * connected (an MCP server) can be nodes. Its input is the call's arguments (an object, or JSON
 * text), the tool's result its output. The name defaults to `toolName` with every character that
 * is not a letter, digit or underscore replaced by `_`. A tool the toolset does not offer fails
 * the node with the names it offers.
 *
 * @example
 * ```ts
 * const search = new ToolsetNode({ toolset: mcpToolset, toolName: 'search-docs' }); // "search_docs"
 * new Workflow({ name: 'research', edges: [[START, buildQuery, search, summarize]] });
 * ```
 */
export class ToolsetNode extends BaseNode<unknown, unknown> {
  readonly toolset: Toolset;
  readonly toolName: string;

  constructor(options: ToolsetNodeOptions) {
    const { toolset, toolName, ...rest } = options;
    super({ ...rest, name: rest.name ?? toNodeName(toolName) });
    this.toolset = toolset;
    this.toolName = toolName;
  }

  override takeInput(input: unknown): unknown {
    return toolArguments(input);
  }

  async run(input: unknown, ctx: NodeContext): Promise<unknown> {
    return runToolAsNode(await this.resolve(ctx), input, ctx);
  }

  private async resolve(ctx: NodeContext): Promise<Tool> {
    const tools = await this.toolset.getTools(new InvocationReadonlyContext(ctx.invocation));
    const tool = tools.find((candidate) => candidate.name === this.toolName);
    if (tool) return tool;
    const offered = tools.map((candidate) => candidate.name).sort();
    throw new NodeFailedError({
      nodeName: this.name,
      attempts: ctx.attempt,
      causeCode: 'WORKFLOW_TOOL_NOT_FOUND',
      message: `Toolset "${this.toolset.name}" offers no tool "${this.toolName}"; it offers: ${offered.join(', ') || 'none'}.`,
    });
  }
}

/** `toolName` as a node name: letters, digits and underscores, not starting with a digit. */
function toNodeName(toolName: string): string {
  const name = toolName.replace(/\W/g, '_');
  return name === '' || /^[0-9]/.test(name) ? `_${name}` : name;
}
