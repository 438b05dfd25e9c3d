import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.WorkflowGraphError');

/** What is wrong with a workflow graph (see {@link WorkflowGraphError}). */
export type WorkflowGraphProblem =
  | 'invalid-node'
  | 'duplicate-node'
  | 'unknown-node'
  | 'no-start'
  | 'start-as-target'
  | 'unreachable-node'
  | 'unconditional-cycle'
  | 'schema-mismatch'
  | 'undeclared-state-key';

/**
 * A workflow's graph is malformed; thrown by the `Workflow` constructor, before anything runs.
 * `problem` says which rule was broken and `nodes` names the nodes involved (for a cycle, the
 * nodes of the cycle in order).
 *
 * @example
 * ```ts
 * try { new Workflow({ name: 'wf', edges: [[START, a], [a, b], [b, a]] }); }
 * catch (error) { if (WorkflowGraphError.isInstance(error)) console.log(error.problem, error.nodes); }
 * ```
 */
export class WorkflowGraphError extends AdkError {
  private readonly [MARKER] = true;
  readonly workflowName: string;
  readonly problem: WorkflowGraphProblem;
  readonly nodes: readonly string[];

  constructor(options: {
    workflowName: string;
    problem: WorkflowGraphProblem;
    nodes: readonly string[];
    message: string;
    cause?: unknown;
  }) {
    super('WorkflowGraphError', 'INVALID_WORKFLOW_GRAPH', {
      message: `Workflow "${options.workflowName}": ${options.message}`,
      cause: options.cause,
    });
    this.workflowName = options.workflowName;
    this.problem = options.problem;
    this.nodes = options.nodes;
  }

  static override isInstance(error: unknown): error is WorkflowGraphError {
    return AdkError.hasMarker(error, MARKER);
  }
}
