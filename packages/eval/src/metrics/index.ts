export {
  averageResult,
  statusOf,
  type EvaluateInput,
  type EvaluationResult,
  type MetricContext,
  type MetricDefinition,
  type MetricEvaluator,
  type MetricInfo,
  type PerInvocationResult,
} from './evaluator';
export { jsonEqual, textOf, toolCallsOf, toolResponsesOf } from './invocation-text';
export {
  toolCallsMatch,
  toolTrajectoryAvgScore,
  type TrajectoryMatchType,
} from './tool-trajectory';
export { porterStem } from './porter-stemmer';
export { isLatinScript, rouge1, rougeTokenize, type RougeScore } from './rouge';
export { responseMatchScore } from './response-match';
export {
  DEFAULT_JUDGE_MODEL,
  DEFAULT_JUDGE_SAMPLES,
  askJudge,
  judgeOptionsOf,
  sampleJudge,
} from './judge-call';
export {
  finalResponseJudgePrompt,
  finalResponseMatchV2,
  majorityVote,
  parseValidityVerdict,
} from './final-response-match-v2';
export {
  averageRubricScore,
  createRubricMetric,
  normalizeRubricText,
  parseRubricVerdicts,
  type RubricPromptInput,
  type RubricVerdict,
} from './rubric-based';
export { rubricBasedFinalResponseQualityV1, rubricBasedToolUseQualityV1 } from './rubric-metrics';
export {
  BUILT_IN_METRICS,
  MetricRegistry,
  metricContext,
  type InvocationScorer,
} from './metric-registry';
export {
  durationV1,
  inferenceCallCountV1,
  tokenUsageV1,
  toolCallCountV1,
} from './efficiency-metrics';
export { parseSafetyVerdict, safetyJudgePrompt, safetyV1 } from './safety-v1';
export {
  hallucinationContext,
  hallucinationSegmenterPrompt,
  hallucinationValidatorPrompt,
  hallucinationsV1,
  parseSentenceLabels,
  parseSentences,
} from './hallucinations-v1';
