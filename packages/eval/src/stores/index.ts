export {
  isSafeId,
  type EvalSetInit,
  type EvalSetResultsStore,
  type EvalSetsStore,
} from './eval-stores';
export { LocalEvalSetsStore } from './local-eval-sets-store';
export { EVAL_HISTORY_DIR, LocalEvalSetResultsStore } from './local-eval-set-results-store';
export { InMemoryEvalSetResultsStore, InMemoryEvalSetsStore } from './in-memory-eval-stores';
