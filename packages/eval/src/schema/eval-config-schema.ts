import { z } from 'zod';

import { CRITERION_SPEC, criterionSchema } from './eval-metric-schema';
import type { KeySpec } from './key-spec';

/** A custom metric named in a config file (Python's `CustomMetricConfig`). */
export const customMetricConfigSchema = z.looseObject({
  codeConfig: z.looseObject({ name: z.string() }),
  metricInfo: z.unknown().optional(),
  description: z.string().default(''),
});

/**
 * `test_config.json`: the metrics to compute, each with a threshold or a full criterion, e.g.
 * `{"criteria": {"tool_trajectory_avg_score": 1.0, "response_match_score": 0.8}}`.
 */
export const evalConfigSchema = z.looseObject({
  criteria: z.record(z.string(), z.union([z.number(), criterionSchema])).default({}),
  customMetrics: z.record(z.string(), customMetricConfigSchema).optional(),
  userSimulatorConfig: z.record(z.string(), z.unknown()).optional(),
});

/** Model fields of an `EvalConfig` (criteria keys are metric names, kept as they are). */
export const EVAL_CONFIG_SPEC: KeySpec = {
  fields: {
    criteria: 'opaque',
    customMetrics: 'opaque',
    userSimulatorConfig: 'opaque',
  },
};

/** Criteria are converted one by one (their keys are metric names). */
export const EVAL_CRITERION_SPEC: KeySpec = CRITERION_SPEC;

/** `test_config.json`. */
export type EvalConfig = z.output<typeof evalConfigSchema>;
