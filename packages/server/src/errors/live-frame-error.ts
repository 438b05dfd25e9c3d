import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.LiveFrameError');

/**
 * A `/run_live` client sent a frame that is not a live request: not JSON, not an object with
 * exactly one of `content`, `blob`, `activity_start`, `activity_end`, `close`, or a binary
 * frame. The server answers with an error frame and closes the socket with `closeCode`.
 */
export class LiveFrameError extends AdkError {
  private readonly [MARKER] = true;
  /** WebSocket close code: 1007 (invalid payload) or 1003 (binary frame). */
  readonly closeCode: 1003 | 1007;

  constructor(options: { message: string; closeCode?: 1003 | 1007; cause?: unknown }) {
    super('LiveFrameError', 'INVALID_LIVE_REQUEST', {
      message: options.message,
      cause: options.cause,
    });
    this.closeCode = options.closeCode ?? 1007;
  }

  static override isInstance(error: unknown): error is LiveFrameError {
    return AdkError.hasMarker(error, MARKER);
  }
}
