import type { BaseAgent } from '@adk/core';

import type { BaseNode } from '../nodes/base-node';

/** A resolved edge between node names (`from` may be `START`). */
export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  /** Routes the edge is taken on; `undefined` for an unconditional edge. */
  readonly routes: readonly string[] | undefined;
}

/** A validated workflow graph: its nodes by name and its edges. */
export interface WorkflowGraph {
  /** The nodes by name (`START` excluded), in the order they first appear in the edges. */
  readonly nodes: ReadonlyMap<string, BaseNode>;
  readonly edges: readonly GraphEdge[];
  /** Edges leaving each node (and `START`). */
  readonly outgoing: ReadonlyMap<string, readonly GraphEdge[]>;
  /** Distinct predecessors of each node. */
  readonly predecessors: ReadonlyMap<string, readonly string[]>;
  /** Agents the nodes run, for the workflow's agent tree. */
  readonly agents: readonly BaseAgent[];
}
