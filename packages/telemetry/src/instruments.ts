import type { Attributes, Counter, Histogram, Meter } from '@opentelemetry/api';

import { Attr, MetricName } from './attributes';

/** The metric instruments fed from the lifecycle channels. */
export class Instruments {
  readonly #operationDuration: Histogram;
  readonly #invocationDuration: Histogram;
  readonly #tokenUsage: Histogram;
  readonly #tokenCount: Counter;
  readonly #jobDuration: Histogram;
  readonly #jobOutcomes: Counter;

  constructor(meter: Meter) {
    this.#operationDuration = meter.createHistogram(MetricName.OPERATION_DURATION, {
      description: 'Duration of GenAI operations: model calls, agent runs and tool calls.',
      unit: 's',
    });
    this.#invocationDuration = meter.createHistogram(MetricName.INVOCATION_DURATION, {
      description: 'Duration of whole runs (Runner.run).',
      unit: 's',
    });
    this.#tokenUsage = meter.createHistogram(MetricName.TOKEN_USAGE, {
      description: 'Tokens used per model call.',
      unit: '{token}',
    });
    this.#tokenCount = meter.createCounter(MetricName.TOKEN_COUNT, {
      description: 'Total tokens used by model calls.',
      unit: '{token}',
    });
    this.#jobDuration = meter.createHistogram(MetricName.JOB_DURATION, {
      description: 'Duration of background job attempts (@adk/jobs).',
      unit: 's',
    });
    this.#jobOutcomes = meter.createCounter(MetricName.JOB_OUTCOMES, {
      description: 'Finished background job attempts, by outcome.',
      unit: '{attempt}',
    });
  }

  /** A finished job attempt: its duration (when it ran) and one count of its outcome. */
  jobAttempt(durationMs: number | undefined, attributes: Attributes): void {
    if (durationMs !== undefined) this.#jobDuration.record(durationMs / 1000, attributes);
    this.#jobOutcomes.add(1, attributes);
  }

  operation(durationMs: number, attributes: Attributes): void {
    this.#operationDuration.record(durationMs / 1000, attributes);
  }

  invocation(durationMs: number, attributes: Attributes): void {
    this.#invocationDuration.record(durationMs / 1000, attributes);
  }

  tokens(type: 'input' | 'output', count: number | undefined, attributes: Attributes): void {
    if (count === undefined || !Number.isFinite(count) || count < 0) return;
    const withType = { ...attributes, [Attr.TOKEN_TYPE]: type };
    this.#tokenUsage.record(count, withType);
    this.#tokenCount.add(count, withType);
  }
}
