import { z } from 'zod';

import { INVOCATION_SPEC, invocationSchema } from './eval-case-schema';
import {
  EVAL_METRIC_RESULT_SPEC,
  EVAL_METRIC_SPEC,
  evalMetricResultSchema,
  evalMetricSchema,
} from './eval-metric-schema';
import type { KeySpec } from './key-spec';

/** Scores of every metric for one invocation (Python's `EvalMetricResultPerInvocation`). */
export const evalMetricResultPerInvocationSchema = z.looseObject({
  actualInvocation: invocationSchema,
  expectedInvocation: invocationSchema.optional(),
  evalMetricResults: z.array(evalMetricResultSchema).default([]),
});

/** The result of one eval case (Python's `EvalCaseResult`). */
export const evalCaseResultSchema = z.looseObject({
  evalSetFile: z.string().default(''),
  evalSetId: z.string().default(''),
  evalId: z.string().default(''),
  finalEvalStatus: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  /** Deprecated in Python: `[metric, result]` pairs, kept for older readers. */
  evalMetricResults: z.array(z.tuple([evalMetricSchema, evalMetricResultSchema])).default([]),
  overallEvalMetricResults: z.array(evalMetricResultSchema),
  evalMetricResultPerInvocation: z.array(evalMetricResultPerInvocationSchema),
  sessionId: z.string(),
  sessionDetails: z.unknown().optional(),
  userId: z.string().optional(),
});

/** The result of a run of an eval set, as `.adk/eval_history/*.evalset_result.json` holds it. */
export const evalSetResultSchema = z.looseObject({
  evalSetResultId: z.string(),
  evalSetResultName: z.string().optional(),
  evalSetId: z.string(),
  evalCaseResults: z.array(evalCaseResultSchema).default([]),
  creationTimestamp: z.number().default(0),
});

/** Model fields of an `EvalCaseResult`. */
export const EVAL_CASE_RESULT_SPEC: KeySpec = {
  fields: {
    evalSetFile: 'leaf',
    evalSetId: 'leaf',
    evalId: 'leaf',
    finalEvalStatus: 'leaf',
    evalMetricResults: { tuple: [EVAL_METRIC_SPEC, EVAL_METRIC_RESULT_SPEC] },
    overallEvalMetricResults: EVAL_METRIC_RESULT_SPEC,
    evalMetricResultPerInvocation: {
      fields: {
        actualInvocation: INVOCATION_SPEC,
        expectedInvocation: INVOCATION_SPEC,
        evalMetricResults: EVAL_METRIC_RESULT_SPEC,
      },
    },
    sessionId: 'leaf',
    // A session as the ADK API server answers it; kept as it is.
    sessionDetails: 'opaque',
    userId: 'leaf',
  },
};

/** Model fields of an `EvalSetResult`. */
export const EVAL_SET_RESULT_SPEC: KeySpec = {
  fields: {
    evalSetResultId: 'leaf',
    evalSetResultName: 'leaf',
    evalSetId: 'leaf',
    evalCaseResults: EVAL_CASE_RESULT_SPEC,
    creationTimestamp: 'leaf',
  },
};

/** Scores of every metric for one invocation. */
export type EvalMetricResultPerInvocation = z.output<typeof evalMetricResultPerInvocationSchema>;
/** The result of one eval case. */
export type EvalCaseResult = z.output<typeof evalCaseResultSchema>;
/** The result of a run of an eval set. */
export type EvalSetResult = z.output<typeof evalSetResultSchema>;
