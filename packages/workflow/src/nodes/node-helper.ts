import { FunctionNode, type FunctionNodeOptions, type NodeFunction } from './function-node';

/** Options of {@link node}: a function node's options, its name defaulting to the function's. */
export type NodeOptions<I, O, K extends string> = Partial<
  Omit<FunctionNodeOptions<I, O, K>, 'run'>
>;

/**
 * A function as a node with options, the counterpart of Python ADK's `@node(...)` decorator:
 * `node(fn, { retry, timeoutMs, rerunOnResume, ... })`. The name defaults to the function's
 * (give `name` for an arrow function assigned nowhere).
 *
 * @example
 * ```ts
 * async function fetchPrice(item: string) { return lookUp(item); }
 * const price = node(fetchPrice, { retry: { maxAttempts: 3 }, timeoutMs: 5_000 });
 * new Workflow({ name: 'shop', edges: [[START, price]] });
 * ```
 */
export function node<I, O, K extends string = never>(
  fn: NodeFunction<I, O>,
  options: NodeOptions<I, O, K> = {},
): FunctionNode<I, O, K> {
  return new FunctionNode<I, O, K>({
    ...options,
    name: options.name ?? fn.name,
    run: (input, ctx) => fn(input, ctx),
  });
}
