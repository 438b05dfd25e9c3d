import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.NodeDataError');

/**
 * A value crossing a node boundary does not match its schema: a node's input (`inputSchema`), its
 * output (`outputSchema`), or the workflow's own input or output. `direction` says which.
 */
export class NodeDataError extends AdkError {
  private readonly [MARKER] = true;
  readonly nodeName: string;
  readonly direction: 'input' | 'output';

  constructor(options: {
    nodeName: string;
    direction: 'input' | 'output';
    message: string;
    cause?: unknown;
  }) {
    super(
      'NodeDataError',
      options.direction === 'input'
        ? 'WORKFLOW_NODE_INPUT_INVALID'
        : 'WORKFLOW_NODE_OUTPUT_INVALID',
      { message: options.message, cause: options.cause },
    );
    this.nodeName = options.nodeName;
    this.direction = options.direction;
  }

  static override isInstance(error: unknown): error is NodeDataError {
    return AdkError.hasMarker(error, MARKER);
  }
}
