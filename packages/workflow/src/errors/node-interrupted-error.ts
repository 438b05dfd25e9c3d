import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.NodeInterruptedError');

/**
 * Thrown by `ctx.runNode(...)` when the dynamic node paused for input: let it propagate, so the
 * calling node pauses too and runs again once the answer arrives (its finished dynamic nodes are
 * then reused, not run again).
 */
export class NodeInterruptedError extends AdkError {
  private readonly [MARKER] = true;
  readonly nodeName: string;
  readonly requestIds: readonly string[];

  constructor(options: { nodeName: string; requestIds: readonly string[] }) {
    super('NodeInterruptedError', 'WORKFLOW_NODE_INTERRUPTED', {
      message: `Workflow node "${options.nodeName}" is waiting for ${options.requestIds.join(', ')}.`,
    });
    this.nodeName = options.nodeName;
    this.requestIds = options.requestIds;
  }

  static override isInstance(error: unknown): error is NodeInterruptedError {
    return AdkError.hasMarker(error, MARKER);
  }
}
