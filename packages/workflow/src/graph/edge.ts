import type { NodeLike } from '../nodes/to-node';
import type { Start } from './constants';

/** One edge given explicitly: from a node (or `START`) to a node, taken on `route` if set. */
export interface Edge {
  from: Start | NodeLike | string;
  to: NodeLike | string;
  /** The route(s) this edge is taken on; unset: always taken after a successful `from`. */
  route?: string | readonly string[];
}

/** Route name to the node(s) it leads to. */
export interface RouteMap {
  readonly [route: string]: NodeLike | string | readonly (NodeLike | string)[];
}

/** A step of a chain: a node, several nodes (fan-out / fan-in), or a route map. */
export type ChainStep = NodeLike | string | readonly (NodeLike | string)[] | RouteMap;

/**
 * An element of `edges`: an explicit {@link Edge}, or a chain `[from, step, step...]` where each
 * step follows the previous one: `[START, a, b]` is `START → a → b`; `[a, [b, c], d]` fans out to
 * `b` and `c` and back in to `d`; `[router, { yes: a, no: b }]` takes `a` on route `yes` and `b`
 * on route `no`. Nodes may be referenced by name (a string) once they appear somewhere as objects.
 */
export type EdgeItem =
  Edge | readonly [Start | NodeLike | string | readonly (NodeLike | string)[], ...ChainStep[]];
