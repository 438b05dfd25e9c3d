import { defaultModelRegistry, type Model } from '@adk/core';

import { UnknownMetricError } from '../errors';
import type { EvalMetric, Invocation } from '../schema';
import {
  averageResult,
  statusOf,
  type MetricContext,
  type MetricDefinition,
  type MetricEvaluator,
  type MetricInfo,
  type PerInvocationResult,
} from './evaluator';
import {
  durationV1,
  inferenceCallCountV1,
  tokenUsageV1,
  toolCallCountV1,
} from './efficiency-metrics';
import { finalResponseMatchV2 } from './final-response-match-v2';
import { hallucinationsV1 } from './hallucinations-v1';
import { responseMatchScore } from './response-match';
import { rubricBasedFinalResponseQualityV1, rubricBasedToolUseQualityV1 } from './rubric-metrics';
import { safetyV1 } from './safety-v1';
import { toolTrajectoryAvgScore } from './tool-trajectory';

/** The metrics every registry starts with, under Python ADK's names. */
export const BUILT_IN_METRICS: readonly MetricDefinition[] = [
  toolTrajectoryAvgScore,
  responseMatchScore,
  finalResponseMatchV2,
  rubricBasedFinalResponseQualityV1,
  rubricBasedToolUseQualityV1,
  toolCallCountV1,
  inferenceCallCountV1,
  tokenUsageV1,
  durationV1,
  safetyV1,
  hallucinationsV1,
];

/** A per-invocation scoring function, the simplest custom metric. */
export type InvocationScorer = (
  actual: Invocation,
  expected: Invocation | undefined,
) => number | undefined | Promise<number | undefined>;

/**
 * The metrics an eval can compute, by name: Python ADK's built-in ones plus any registered with
 * {@link MetricRegistry.register} (a full {@link MetricDefinition}) or
 * {@link MetricRegistry.registerScorer} (a per-invocation function, averaged).
 *
 * @example
 * ```ts
 * const metrics = new MetricRegistry();
 * metrics.registerScorer('mentions_paris', (actual) => (textOf(actual.finalResponse).includes('Paris') ? 1 : 0));
 * ```
 */
export class MetricRegistry {
  readonly #definitions = new Map<string, MetricDefinition>();

  constructor(options: { builtIns?: boolean } = {}) {
    if (options.builtIns !== false) for (const metric of BUILT_IN_METRICS) this.register(metric);
  }

  /** Add (or replace) a metric. */
  register(definition: MetricDefinition): this {
    this.#definitions.set(definition.metricName, definition);
    return this;
  }

  /** Add a metric scored per invocation by `score` (0..1 unless `range` says otherwise), averaged per case. */
  registerScorer(
    metricName: string,
    score: InvocationScorer,
    options: { description?: string; minValue?: number; maxValue?: number } = {},
  ): this {
    return this.register({
      metricName,
      description: options.description ?? `Custom metric ${metricName}.`,
      ...(options.minValue === undefined ? {} : { minValue: options.minValue }),
      ...(options.maxValue === undefined ? {} : { maxValue: options.maxValue }),
      create: (metric) => ({
        async evaluate({ actual, expected }) {
          const results: PerInvocationResult[] = [];
          for (const [i, invocation] of actual.entries()) {
            const golden = expected?.[i];
            const value = await score(invocation, golden);
            results.push({
              actualInvocation: invocation,
              ...(golden ? { expectedInvocation: golden } : {}),
              ...(value === undefined ? {} : { score: value }),
              evalStatus: statusOf(value, metric.threshold),
            });
          }
          return averageResult(results, metric.threshold);
        },
      }),
    });
  }

  /** Whether a metric of that name is registered. */
  has(metricName: string): boolean {
    return this.#definitions.has(metricName);
  }

  /** The names of every registered metric. */
  names(): string[] {
    return [...this.#definitions.keys()];
  }

  /**
   * The evaluator of `metric`.
   *
   * @throws UnknownMetricError when no metric of that name is registered.
   */
  create(metric: EvalMetric, context: MetricContext): MetricEvaluator {
    const definition = this.#definitions.get(metric.metricName);
    if (!definition)
      throw new UnknownMetricError({ metricName: metric.metricName, known: this.names() });
    return definition.create(metric, context);
  }

  /** Every metric's description and value range, as the ADK web UI's `metrics-info` route lists them. */
  metricsInfo(): MetricInfo[] {
    return [...this.#definitions.values()].map((d) => ({
      metricName: d.metricName,
      description: d.description,
      metricValueInfo: {
        interval: {
          minValue: d.minValue ?? 0,
          maxValue: d.maxValue ?? 1,
          openAtMin: false,
          openAtMax: false,
        },
      },
    }));
  }
}

/**
 * A metric context whose judge is `judge` (a model, or a function of the criterion's model name),
 * else the model the core registry resolves for the name.
 */
export function metricContext(judge?: Model | ((name: string) => Model)): MetricContext {
  return {
    judgeModel(name) {
      if (judge === undefined) return defaultModelRegistry.resolve(name);
      return typeof judge === 'function' ? judge(name) : judge;
    },
  };
}
