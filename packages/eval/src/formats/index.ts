export { parseJsonText, parseModel } from './parse-model';
export {
  EVAL_SET_FILE_SUFFIX,
  convertLegacyEvalData,
  loadEvalSetFile,
  parseEvalSet,
  serializeEvalSet,
  writeEvalSetFile,
} from './eval-set-file';
export {
  DEFAULT_EVAL_CONFIG,
  loadEvalConfig,
  metricsFromConfig,
  parseEvalConfig,
} from './eval-config-file';
export {
  EVAL_SET_RESULT_FILE_SUFFIX,
  formatEvalSetResultFile,
  parseEvalSetResult,
  serializeEvalSetResult,
} from './eval-set-result-file';
