import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.NodeTimeoutError');

/** A workflow node ran longer than its `timeoutMs`; its signal was aborted. */
export class NodeTimeoutError extends AdkError {
  private readonly [MARKER] = true;
  readonly nodeName: string;
  readonly timeoutMs: number;

  constructor(options: { nodeName: string; timeoutMs: number }) {
    super('NodeTimeoutError', 'WORKFLOW_NODE_TIMEOUT', {
      message: `Workflow node "${options.nodeName}" did not finish within ${options.timeoutMs} ms.`,
    });
    this.nodeName = options.nodeName;
    this.timeoutMs = options.timeoutMs;
  }

  static override isInstance(error: unknown): error is NodeTimeoutError {
    return AdkError.hasMarker(error, MARKER);
  }
}
