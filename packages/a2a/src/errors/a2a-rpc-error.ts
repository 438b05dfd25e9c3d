import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.A2aRpcError');

/**
 * A JSON-RPC error of the A2A protocol: a remote agent answered with an error object (task not
 * found, invalid params...), or its answer broke the protocol (`rpcCode` -32006, invalid agent
 * response). The server also throws it internally to answer a request with that error.
 *
 * @example
 * ```ts
 * try { await client.getTask({ id }) } catch (error) {
 *   if (A2aRpcError.isInstance(error) && error.rpcCode === A2aErrorCode.taskNotFound) forget(id);
 * }
 * ```
 */
export class A2aRpcError extends AdkError {
  private readonly [MARKER] = true;
  /** The JSON-RPC error code (see `A2aErrorCode`). */
  readonly rpcCode: number;
  /** The error object's `data`, when any. */
  readonly data: unknown;

  constructor(options: { rpcCode: number; message: string; data?: unknown; cause?: unknown }) {
    super('A2aRpcError', 'A2A_RPC_ERROR', { message: options.message, cause: options.cause });
    this.rpcCode = options.rpcCode;
    this.data = options.data;
  }

  /** The JSON-RPC error object for this error. */
  toErrorObject(): { code: number; message: string; data?: unknown } {
    const object: { code: number; message: string; data?: unknown } = {
      code: this.rpcCode,
      message: this.message,
    };
    if (this.data !== undefined) object.data = this.data;
    return object;
  }

  static override isInstance(error: unknown): error is A2aRpcError {
    return AdkError.hasMarker(error, MARKER);
  }
}
