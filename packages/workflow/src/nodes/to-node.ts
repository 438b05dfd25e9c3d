import { BaseAgent, type Tool } from '@adk/core';

import { AgentNode } from './agent-node';
import { BaseNode } from './base-node';
import { FunctionNode, type NodeFunction } from './function-node';
import { ToolNode } from './tool-node';

/**
 * Anything that can be a workflow node: a node, an agent, a tool, or a named function
 * `(input, ctx) => output` (its name is the node's name).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any input type is accepted
export type NodeLike = BaseNode<any, any> | BaseAgent | Tool | NodeFunction<any, any>;

/** True when `value` is a tool (has `name`, `declaration()` and `run()`). */
export function isTool(value: unknown): value is Tool {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as Tool).name === 'string' &&
    typeof (value as Tool).run === 'function' &&
    typeof (value as Tool).declaration === 'function'
  );
}

/** True when `value` can be made a node by {@link toNode}. */
export function isNodeLike(value: unknown): value is NodeLike {
  return (
    value instanceof BaseNode ||
    value instanceof BaseAgent ||
    typeof value === 'function' ||
    isTool(value)
  );
}

/**
 * The node for `value`: nodes as they are, agents in an {@link AgentNode}, tools in a
 * {@link ToolNode}, functions in a {@link FunctionNode} named after the function. `undefined`
 * for anything else. The same agent, tool or function always gives the same node.
 */
export function toNode(value: unknown): BaseNode | undefined {
  if (value instanceof BaseNode) return value;
  if (value === null || (typeof value !== 'object' && typeof value !== 'function'))
    return undefined;
  const cached = wrapped.get(value);
  if (cached) return cached;
  let node: BaseNode | undefined;
  if (value instanceof BaseAgent) node = new AgentNode(value);
  else if (typeof value === 'function') {
    const fn = value as NodeFunction;
    node = new FunctionNode({ name: fn.name, run: (input, ctx) => fn(input, ctx) });
  } else if (isTool(value)) node = new ToolNode(value);
  if (node) wrapped.set(value, node);
  return node;
}

const wrapped = new WeakMap<object, BaseNode>();
