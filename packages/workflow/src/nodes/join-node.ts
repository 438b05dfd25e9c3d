import { BaseNode, type BaseNodeOptions } from './base-node';

/**
 * A fan-in barrier: waits until each of its predecessors has produced an output, then outputs
 * them keyed by predecessor name (`{ flights: ..., hotels: ... }`). In a loop it waits again for
 * every predecessor's next output.
 *
 * @example
 * ```ts
 * const both = new JoinNode({ name: 'both' });
 * edges: [[START, [flights, hotels], both, summarize]]
 * ```
 */
export class JoinNode extends BaseNode<Record<string, unknown>, Record<string, unknown>> {
  constructor(options: Omit<BaseNodeOptions, 'inputSchema'>) {
    super(options);
  }

  override get waitsForAllPredecessors(): boolean {
    return true;
  }

  run(input: Record<string, unknown>): Record<string, unknown> {
    return input;
  }
}
