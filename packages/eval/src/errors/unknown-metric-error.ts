import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.UnknownMetricError');

/** An eval config names a metric that no evaluator is registered for, or gives it a bad criterion. */
export class UnknownMetricError extends AdkError {
  private readonly [MARKER] = true;
  readonly metricName: string;

  constructor(options: { metricName: string; known: readonly string[]; message?: string }) {
    super('UnknownMetricError', 'EVAL_METRIC_UNKNOWN', {
      message:
        options.message ??
        `No evaluator is registered for metric "${options.metricName}". Known metrics: ${options.known.join(', ')}.`,
    });
    this.metricName = options.metricName;
  }

  static override isInstance(error: unknown): error is UnknownMetricError {
    return AdkError.hasMarker(error, MARKER);
  }
}
