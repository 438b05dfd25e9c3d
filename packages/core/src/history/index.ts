export { isVisibleInBranch } from './branch';
export {
  buildContents,
  renderHistory,
  SUMMARY_HEADER,
  type BuildContentsOptions,
} from './build-contents';
export {
  buildContentsIncrementally,
  configureContentsCache,
  mutableContents,
  type ContentsCacheOptions,
} from './contents-cache';
export { FRAMEWORK_FUNCTION_NAMES, isFrameworkFunction } from './framework-functions';
export { findResumedCall, findResumedCaller, resumedBranch, type ResumedCall } from './find-caller';
export {
  compactionRangeIds,
  hasMeaningfulContent,
  INPUT_REJECTED_ERROR_CODE,
  isEmptyPart,
  selectHistory,
  type HistoryItem,
  type SelectHistoryOptions,
} from './history';
export { CONTEXT_HEADER, reframeAsContext } from './reframe';
export { isRewindEvent, withoutRewoundEvents } from './rewound-events';
export {
  CONTINUE_TURN_TEXT,
  EMPTY_HISTORY_TEXT,
  LEADING_USER_TURN_TEXT,
  withUserTurnsAtEnds,
} from './turn-order';
