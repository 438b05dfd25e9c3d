import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.JobEngineStoppedError');

/**
 * A queue engine stopped serving a queue on its own, while the `JobWorker` still runs: the worker
 * takes no more jobs of that queue until it is started again. graphile-worker does this when a
 * breaking migration of its schema is announced (a newer graphile-worker upgraded the database).
 * Reported through the worker's `onError`.
 */
export class JobEngineStoppedError extends AdkError {
  private readonly [MARKER] = true;
  /** `graphile-worker` or `bullmq`. */
  readonly engine: string;
  /** The queue no longer served. */
  readonly queue: string;

  constructor(options: { engine: string; queue: string; reason: string; cause?: unknown }) {
    super('JobEngineStoppedError', 'JOB_ENGINE_STOPPED', {
      message: `${options.engine} stopped serving queue "${options.queue}": ${options.reason}. Restart the worker once the cause is fixed.`,
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.engine = options.engine;
    this.queue = options.queue;
  }

  static override isInstance(error: unknown): error is JobEngineStoppedError {
    return AdkError.hasMarker(error, MARKER);
  }
}
