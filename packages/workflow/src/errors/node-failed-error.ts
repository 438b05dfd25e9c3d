import { AdkError, type StoredNodeError } from '@adk/core';

const MARKER = Symbol.for('adk.error.NodeFailedError');

/**
 * A workflow node failed after its last attempt (or an agent node ended on an error event). It is
 * what a node's `error` route receives, serialised, and what the workflow's error event reports
 * when no route handles it. `cause` is the last attempt's error.
 */
export class NodeFailedError extends AdkError {
  private readonly [MARKER] = true;
  readonly nodeName: string;
  readonly attempts: number;
  /** `code` of the underlying error when it is an `AdkError` (or an agent's `errorCode`). */
  readonly causeCode: string | undefined;
  /**
   * The stored failure this one passes on (a dynamic node's, a nested workflow's): the node that
   * ran it records that failure as its own, so the message is stated once.
   */
  readonly failure: StoredNodeError | undefined;

  constructor(options: {
    nodeName: string;
    attempts: number;
    message: string;
    causeCode?: string;
    cause?: unknown;
    failure?: StoredNodeError;
  }) {
    super('NodeFailedError', 'WORKFLOW_NODE_FAILED', {
      message: options.message,
      cause: options.cause,
    });
    this.nodeName = options.nodeName;
    this.attempts = options.attempts;
    this.causeCode = options.causeCode;
    this.failure = options.failure;
  }

  static override isInstance(error: unknown): error is NodeFailedError {
    return AdkError.hasMarker(error, MARKER);
  }
}
