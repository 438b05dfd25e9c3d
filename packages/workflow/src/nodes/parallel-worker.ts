import type { BaseAgent } from '@adk/core';

import { NodeInterruptedError } from '../errors/node-interrupted-error';
import { BaseNode, type BaseNodeOptions } from './base-node';
import type { NodeContext } from './node-context';

/** Options of {@link ParallelWorker}. */
export interface ParallelWorkerOptions extends BaseNodeOptions {
  /** The node run once per item of the input list (a node, function, agent or tool). */
  node: BaseNode;
  /** How many items run at once. Default 4. */
  maxConcurrency?: number;
}

/**
 * Maps a node over its input list with bounded concurrency; the output is the list of results,
 * in input order. Each item runs as a dynamic node (`worker@n/item@i`), so a resumed run reuses
 * the items that finished.
 *
 * @example
 * ```ts
 * const summarizeAll = new ParallelWorker({ name: 'summarize_all', node: summarizeOne, maxConcurrency: 5 });
 * ```
 */
export class ParallelWorker extends BaseNode<readonly unknown[], unknown[]> {
  readonly node: BaseNode;
  readonly maxConcurrency: number;

  constructor(options: ParallelWorkerOptions) {
    super({ rerunOnResume: true, ...options });
    this.node = options.node;
    this.maxConcurrency = Math.max(1, options.maxConcurrency ?? 4);
  }

  override get agents(): readonly BaseAgent[] {
    return this.node.agents;
  }

  async run(input: readonly unknown[], ctx: NodeContext): Promise<unknown[]> {
    const items = Array.isArray(input) ? input : [input];
    const results = new Array<unknown>(items.length);
    // The first failing item cancels the others and fails the worker at once (as Python cancels
    // its sibling tasks); a pause (an item asking for input) lets the others go on.
    const cancel = new AbortController();
    let failed: ((error: unknown) => void) | undefined;
    const failure = new Promise<never>((_, reject) => (failed = reject));
    let pause: unknown;
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < items.length && !cancel.signal.aborted) {
        const index = next++;
        try {
          // Items start in order, so each gets the run id of its position (`item@1`... as in
          // Python) on every attempt and resume.
          results[index] = await ctx.runNode(this.node, items[index], { signal: cancel.signal });
        } catch (error) {
          if (NodeInterruptedError.isInstance(error)) {
            pause ??= error;
            return;
          }
          if (!cancel.signal.aborted) {
            cancel.abort(error);
            failed?.(error);
          }
          return;
        }
      }
    };
    const workers = Array.from({ length: Math.min(this.maxConcurrency, items.length) }, worker);
    failure.catch(() => undefined);
    await Promise.race([Promise.all(workers), failure]);
    if (pause !== undefined) throw pause;
    return results;
  }
}
