import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.RunStreamStalledError');

/**
 * A resumed `/run_sse` stream (a reconnect with `Last-Event-ID`) saw no new stored event of the
 * invocation for the idle limit, and no instance it can see is running it: the instance that ran
 * it most likely died. `runner.resume` continues the invocation from its stored events.
 */
export class RunStreamStalledError extends AdkError {
  private readonly [MARKER] = true;
  readonly invocationId: string;

  constructor(options: { invocationId: string; idleMs: number }) {
    super('RunStreamStalledError', 'RUN_STREAM_STALLED', {
      message:
        `Invocation ${options.invocationId} stored nothing new for ${options.idleMs} ms and is ` +
        'not running here; its instance may have stopped. Resume it with runner.resume.',
    });
    this.invocationId = options.invocationId;
  }

  static override isInstance(error: unknown): error is RunStreamStalledError {
    return AdkError.hasMarker(error, MARKER);
  }
}
