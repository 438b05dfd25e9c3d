import type { WorkflowGraph } from '../graph/workflow-graph';
import type { BaseNode } from '../nodes/base-node';
import type { Execution } from './outcome';

interface Queued {
  input: unknown;
  fromUser: boolean;
}

/**
 * @internal The graph nodes of a run waiting to start: triggered by their predecessors (a join
 * once all of them arrived), started one execution at a time per node, each execution named
 * `node@n` by a counter per node (from 1, as Python's run ids).
 */
export class NodeQueue {
  private readonly queued = new Map<string, Queued[]>();
  private readonly running = new Set<string>();
  private readonly counters = new Map<string, number>();
  private readonly arrivals = new Map<string, Map<string, unknown>>();

  /** @param firstRunId The run id of a node's first execution (1, as Python; 0 in older runs). */
  constructor(
    private readonly graph: WorkflowGraph,
    private readonly firstRunId: number,
  ) {}

  /** `from` gave `value` to `target`. */
  trigger(target: string, from: string, value: unknown, fromUser: boolean): void {
    const node = this.graph.nodes.get(target) as BaseNode;
    if (!node.waitsForAllPredecessors) return this.enqueue(target, { input: value, fromUser });
    const arrived = this.arrivals.get(target) ?? new Map<string, unknown>();
    arrived.set(from, value);
    this.arrivals.set(target, arrived);
    const predecessors = this.graph.predecessors.get(target) ?? [];
    if (predecessors.every((name) => arrived.has(name))) {
      this.arrivals.delete(target);
      this.enqueue(target, { input: Object.fromEntries(arrived), fromUser: false });
    }
  }

  /**
   * The executions that can start now (their node is not running), while `canStart()` allows;
   * each is marked running until {@link settled}.
   */
  *ready(canStart: () => boolean): Generator<Execution> {
    for (const [name, queue] of this.queued) {
      if (this.running.has(name)) continue;
      if (!canStart()) return;
      const { input, fromUser } = queue.shift() as Queued;
      if (queue.length === 0) this.queued.delete(name);
      const count = this.counters.get(name) ?? this.firstRunId;
      this.counters.set(name, count + 1);
      this.running.add(name);
      const node = this.graph.nodes.get(name) as BaseNode;
      yield { node, path: `${name}@${count}`, input, fromUser };
    }
  }

  /** The execution of `name` is over: its next one may start. */
  settled(name: string): void {
    this.running.delete(name);
  }

  private enqueue(target: string, item: Queued): void {
    const queue = this.queued.get(target) ?? [];
    queue.push(item);
    this.queued.set(target, queue);
  }
}
