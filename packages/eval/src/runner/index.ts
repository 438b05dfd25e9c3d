export { evalTargetFromAgent, type EvalTarget, type EvalTurnRequest } from './eval-target';
export { invocationFromEvents } from './invocation-from-events';
export {
  FINISHED_MARKER,
  LlmUserSimulator,
  type UserSimulator,
  type UserSimulatorStep,
} from './user-simulator';
export {
  DEFAULT_EVAL_USER_ID,
  EVAL_SESSION_ID_PREFIX,
  invocationCost,
  runInference,
  type InferenceResult,
} from './run-inference';
export { ModelCallLog, type FailedModelCall, type InvocationModelCalls } from './model-call-log';
export { createEvalSetResult } from './eval-set-result';
export { mapConcurrent } from './concurrency';
export {
  evaluateEvalSet,
  type CaseSummary,
  type EvalProgress,
  type EvalSetOutcome,
  type EvaluateEvalSetOptions,
  type MetricSummary,
} from './evaluate-eval-set';
export { evalCaseFromSession } from './eval-case-from-session';
