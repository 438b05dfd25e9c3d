import type { BaseAgent } from '@adk/core';

import { WorkflowGraphError } from '../errors/workflow-graph-error';
import { BaseNode, type BaseNodeOptions } from './base-node';
import type { NodeContext } from './node-context';
import { toNode } from './to-node';

/** Options of {@link FirstMatchNode}. */
export interface FirstMatchNodeOptions extends BaseNodeOptions {
  /** The branches (nodes, functions, agents, tools), in priority order; each gets the input. */
  nodes: readonly unknown[];
  /** Which result wins (default: any result but `undefined` and `null`). */
  match?: (result: unknown) => boolean;
  /** Most branches running at once (default: all). */
  maxParallel?: number;
  /** The output when no branch matches (default `undefined`). */
  noMatchOutput?: unknown;
}

/**
 * Races its branches on the same input and outputs the first result `match` accepts, cancelling
 * the branches still running (Python ADK's `FirstMatchNode`). A failing branch does not fail the
 * node: the race goes on without it. Each branch runs as a dynamic node (`first@n/branch@k`), so
 * a resumed run reuses the branches that finished.
 *
 * @example
 * ```ts
 * const answer = new FirstMatchNode({
 *   name: 'first_source_with_answer',
 *   nodes: [readWiki, readCrm, readDocs],
 *   match: (result) => (result as { found?: boolean }).found === true,
 * });
 * ```
 */
export class FirstMatchNode extends BaseNode {
  readonly nodes: readonly BaseNode[];
  readonly match: (result: unknown) => boolean;
  readonly maxParallel: number;
  readonly noMatchOutput: unknown;

  constructor(options: FirstMatchNodeOptions) {
    super({ rerunOnResume: true, ...options });
    this.nodes = options.nodes.map((value) => {
      const built = toNode(value);
      if (!built) {
        throw new WorkflowGraphError({
          workflowName: options.name,
          problem: 'invalid-node',
          nodes: [],
          message: 'a branch of the FirstMatchNode is not a node, agent, tool or function.',
        });
      }
      return built;
    });
    this.match = options.match ?? ((result) => result !== undefined && result !== null);
    this.maxParallel = Math.max(1, options.maxParallel ?? this.nodes.length);
    this.noMatchOutput = options.noMatchOutput;
  }

  override get agents(): readonly BaseAgent[] {
    return this.nodes.flatMap((branch) => branch.agents);
  }

  async run(input: unknown, ctx: NodeContext): Promise<unknown> {
    const cancel = new AbortController();
    const remaining = [...this.nodes];
    let running = 0;
    const matches = (result: unknown): boolean => {
      try {
        return this.match(result);
      } catch {
        return false;
      }
    };
    return new Promise((resolve) => {
      const launch = () => {
        while (!cancel.signal.aborted && remaining.length > 0 && running < this.maxParallel) {
          const branch = remaining.shift() as BaseNode;
          running++;
          ctx.runNode(branch, input, { signal: cancel.signal }).then(
            (result) => settle(matches(result), result),
            // A failing branch leaves the race; the others go on.
            () => settle(false, undefined),
          );
        }
        if (running === 0 && !cancel.signal.aborted) resolve(this.noMatchOutput);
      };
      const settle = (won: boolean, result: unknown) => {
        running--;
        if (cancel.signal.aborted) return;
        if (won) {
          cancel.abort();
          resolve(result);
          return;
        }
        launch();
      };
      launch();
    });
  }
}
