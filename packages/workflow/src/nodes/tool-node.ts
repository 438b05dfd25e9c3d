import { getText, InvocationToolContext, type Tool } from '@adk/core';

import { BaseNode, type BaseNodeOptions } from './base-node';
import { isContent } from './content-input';
import type { NodeContext } from './node-context';

/**
 * A tool used as a node: its input (an object, or JSON text: the user's message after `START`)
 * is the call's arguments, the tool's result is the output. Any other input is passed as
 * `{ input }`. State and artifact changes the tool makes go
 * to the node's output event.
 */
export class ToolNode extends BaseNode<unknown, unknown> {
  readonly tool: Tool;

  constructor(tool: Tool, options: Partial<BaseNodeOptions> = {}) {
    super({ ...options, name: options.name ?? tool.name, description: tool.description });
    this.tool = tool;
  }

  /** A `Content` or string input is read as JSON arguments when it is JSON, as Python's. */
  override takeInput(input: unknown): unknown {
    return toolArguments(input);
  }

  async run(input: unknown, ctx: NodeContext): Promise<unknown> {
    return runToolAsNode(this.tool, input, ctx);
  }
}

/**
 * @internal Run `tool` for a node: an object input is the call's arguments (none: `{}`, any other
 * value: `{ input }`); the tool's state and artifact changes go to the node's output event.
 */
export function runToolAsNode(tool: Tool, input: unknown, ctx: NodeContext): Promise<unknown> {
  const args =
    input !== null && typeof input === 'object' && !Array.isArray(input)
      ? (input as Record<string, unknown>)
      : input === undefined
        ? {}
        : { input };
  const toolContext = new InvocationToolContext(ctx.invocation, ctx.actions, `wf-${ctx.path}`);
  return Promise.resolve(tool.run(args, toolContext));
}

/** @internal A `Content` or string input read as JSON arguments when it is JSON (Python's). */
export function toolArguments(input: unknown): unknown {
  const value = isContent(input) ? getText(input) : input;
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return value;
  }
}
