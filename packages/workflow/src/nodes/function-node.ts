import type { z } from 'zod';

import { BaseNode, type BaseNodeOptions } from './base-node';
import { contentAsValue } from './content-input';
import type { NodeContext } from './node-context';

/** A plain function used as a node: `(input, ctx) => output`; its name is the node's name. */
export type NodeFunction<I = unknown, O = unknown> = (input: I, ctx: NodeContext) => O | Promise<O>;

/** Options of {@link FunctionNode}. */
export interface FunctionNodeOptions<I, O, K extends string> extends BaseNodeOptions {
  /**
   * State keys read for the function: their current values are passed as the third argument,
   * keyed by name.
   */
  stateKeys?: readonly K[];
  run: (input: I, ctx: NodeContext, state: Record<K, unknown>) => O | Promise<O>;
  /**
   * Receive a `Content` input (the user's message, for a node after `START`) as it is, as a
   * Python function whose input is typed `Content` or untyped does. Default false: the function
   * receives its text (read as JSON when the `inputSchema` does not take the text), as a Python
   * function whose input is typed `str`.
   */
  acceptsContent?: boolean;
}

/**
 * A node running a function: typed input from its predecessor (or its `inputSchema`), the node
 * context, and the state values named in `stateKeys`.
 *
 * @example
 * ```ts
 * const greet = new FunctionNode({
 *   name: 'greet',
 *   inputSchema: z.object({ name: z.string() }),
 *   stateKeys: ['user:title'],
 *   run: (input, _ctx, state) => `Hello ${state['user:title'] ?? ''} ${input.name}`,
 * });
 * ```
 */
export class FunctionNode<I = unknown, O = unknown, K extends string = never> extends BaseNode<
  I,
  O
> {
  readonly stateKeys: readonly K[];
  readonly acceptsContent: boolean;
  private readonly fn: FunctionNodeOptions<I, O, K>['run'];

  constructor(options: FunctionNodeOptions<I, O, K>) {
    super(options);
    this.stateKeys = options.stateKeys ?? [];
    this.fn = options.run;
    this.acceptsContent = options.acceptsContent ?? false;
  }

  override takeInput(input: unknown): unknown {
    return this.acceptsContent ? input : contentAsValue(input, this.inputSchema);
  }

  run(input: I, ctx: NodeContext): O | Promise<O> {
    const state = {} as Record<K, unknown>;
    for (const key of this.stateKeys) state[key] = ctx.state.get(key);
    return this.fn(input, ctx, state);
  }
}

/**
 * A function node with schemas: `input` typed from `inputSchema`.
 *
 * @example
 * ```ts
 * const total = functionNode({ name: 'total', inputSchema: z.array(z.number()), run: (xs) => xs.reduce((a, b) => a + b, 0) });
 * ```
 */
export function functionNode<S extends z.ZodType, O, K extends string = never>(
  options: Omit<FunctionNodeOptions<z.infer<S>, O, K>, 'inputSchema'> & { inputSchema: S },
): FunctionNode<z.infer<S>, O, K>;
export function functionNode<I, O, K extends string = never>(
  options: FunctionNodeOptions<I, O, K>,
): FunctionNode<I, O, K>;
export function functionNode<I, O, K extends string>(
  options: FunctionNodeOptions<I, O, K>,
): FunctionNode<I, O, K> {
  return new FunctionNode(options);
}
