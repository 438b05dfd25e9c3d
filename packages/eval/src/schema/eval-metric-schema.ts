import { z } from 'zod';

import { RUBRIC_SPEC, rubricSchema } from './eval-case-schema';
import type { KeySpec } from './key-spec';

/** Python's `EvalStatus` (an integer enum in files and HTTP answers). */
export const EvalStatus = { PASSED: 1, FAILED: 2, NOT_EVALUATED: 3 } as const;
/** One of {@link EvalStatus}. */
export type EvalStatus = (typeof EvalStatus)[keyof typeof EvalStatus];

/** Options of an LLM judge (Python's `JudgeModelOptions`). */
export const judgeModelOptionsSchema = z.looseObject({
  judgeModel: z.string().default('gemini-2.5-flash'),
  judgeModelConfig: z.record(z.string(), z.unknown()).optional(),
  numSamples: z.number().int().positive().default(5),
});

/**
 * A metric's criterion: its threshold plus metric-specific settings (`matchType` and `ignoreArgs`
 * for the tool trajectory, `judgeModelOptions` for judged metrics, `rubrics` for rubric metrics).
 */
export const criterionSchema = z.looseObject({
  threshold: z.number(),
  judgeModelOptions: judgeModelOptionsSchema.optional(),
  matchType: z.enum(['EXACT', 'IN_ORDER', 'ANY_ORDER']).optional(),
  ignoreArgs: z.boolean().optional(),
  rubrics: z.array(rubricSchema).optional(),
});

/** Model fields of a criterion. */
export const CRITERION_SPEC: KeySpec = {
  fields: {
    threshold: 'leaf',
    judgeModelOptions: {
      fields: { judgeModel: 'leaf', judgeModelConfig: 'opaque', numSamples: 'leaf' },
    },
    matchType: 'leaf',
    ignoreArgs: 'leaf',
    rubrics: RUBRIC_SPEC,
    evaluateIntermediateNlResponses: 'leaf',
  },
};

/** A metric to compute and the threshold it must reach (Python's `EvalMetric`). */
export const evalMetricSchema = z.looseObject({
  metricName: z.string(),
  threshold: z.number(),
  judgeModelOptions: judgeModelOptionsSchema.optional(),
  criterion: criterionSchema.optional(),
  customFunctionPath: z.string().optional(),
});

/** Model fields of an `EvalMetric`. */
export const EVAL_METRIC_SPEC: KeySpec = {
  fields: {
    metricName: 'leaf',
    threshold: 'leaf',
    judgeModelOptions: CRITERION_SPEC.fields.judgeModelOptions as KeySpec,
    criterion: CRITERION_SPEC,
    customFunctionPath: 'leaf',
  },
};

/** A rubric's verdict: 1 (yes), 0 (no) or absent when the judge gave none. */
export const rubricScoreSchema = z.looseObject({
  rubricId: z.string(),
  rationale: z.string().optional(),
  score: z.number().optional(),
});

/** The score a metric got (Python's `EvalMetricResult`). */
export const evalMetricResultSchema = evalMetricSchema.extend({
  score: z.number().optional(),
  evalStatus: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  details: z.looseObject({ rubricScores: z.array(rubricScoreSchema).optional() }).optional(),
});

/** Model fields of an `EvalMetricResult`. */
export const EVAL_METRIC_RESULT_SPEC: KeySpec = {
  fields: {
    ...EVAL_METRIC_SPEC.fields,
    score: 'leaf',
    evalStatus: 'leaf',
    details: {
      fields: { rubricScores: { fields: { rubricId: 'leaf', rationale: 'leaf', score: 'leaf' } } },
    },
  },
};

/** A metric to compute. */
export type EvalMetric = z.output<typeof evalMetricSchema>;
/** A metric's criterion. */
export type Criterion = z.output<typeof criterionSchema>;
/** Options of an LLM judge. */
export type JudgeModelOptions = z.output<typeof judgeModelOptionsSchema>;
/** A rubric's verdict. */
export type RubricScore = z.output<typeof rubricScoreSchema>;
/** The score a metric got. */
export type EvalMetricResult = z.output<typeof evalMetricResultSchema>;
