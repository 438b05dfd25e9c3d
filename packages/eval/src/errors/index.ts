export { EvalFileError, type EvalFileIssue } from './eval-file-error';
export { EvalNotFoundError } from './eval-not-found-error';
export { EvalExistsError } from './eval-exists-error';
export { UnknownMetricError } from './unknown-metric-error';
export { ReplayMissError } from './replay-miss-error';
export { EvalInferenceError } from './eval-inference-error';
export { JudgeResponseError } from './judge-response-error';
