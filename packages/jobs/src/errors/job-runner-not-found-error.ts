import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.JobRunnerNotFoundError');

/** A worker took a job whose `appName` has no runner; the attempt fails with this error. */
export class JobRunnerNotFoundError extends AdkError {
  private readonly [MARKER] = true;
  readonly appName: string;

  constructor(options: { appName: string }) {
    super('JobRunnerNotFoundError', 'JOB_RUNNER_NOT_FOUND', {
      message: `This worker has no runner for app "${options.appName}". Pass one in the worker's runners option.`,
    });
    this.appName = options.appName;
  }

  static override isInstance(error: unknown): error is JobRunnerNotFoundError {
    return AdkError.hasMarker(error, MARKER);
  }
}
