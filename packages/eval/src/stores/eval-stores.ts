import type { EvalCase, EvalCaseResult, EvalSet, EvalSetResult } from '../schema';

/** Optional fields of a new eval set. */
export interface EvalSetInit {
  name?: string;
  description?: string;
  evalCases?: EvalCase[];
  creationTimestamp?: number;
}

/**
 * Where an app's eval sets live (Python's `EvalSetsManager`). Ids are checked with
 * {@link assertSafeId} so they can name files.
 */
export interface EvalSetsStore {
  createEvalSet(appName: string, evalSetId: string, init?: EvalSetInit): Promise<EvalSet>;
  /** The eval set, or `undefined`. */
  getEvalSet(appName: string, evalSetId: string): Promise<EvalSet | undefined>;
  listEvalSets(appName: string): Promise<string[]>;
  deleteEvalSet(appName: string, evalSetId: string): Promise<void>;
  addEvalCase(appName: string, evalSetId: string, evalCase: EvalCase): Promise<void>;
  getEvalCase(appName: string, evalSetId: string, evalId: string): Promise<EvalCase | undefined>;
  updateEvalCase(appName: string, evalSetId: string, evalCase: EvalCase): Promise<void>;
  deleteEvalCase(appName: string, evalSetId: string, evalId: string): Promise<void>;
}

/** Where an app's eval results live (Python's `EvalSetResultsManager`). */
export interface EvalSetResultsStore {
  /** Build an {@link EvalSetResult} from case results (Python's naming) and store it. */
  saveEvalSetResult(
    appName: string,
    evalSetId: string,
    evalCaseResults: EvalCaseResult[],
  ): Promise<EvalSetResult>;
  /** The result, or `undefined`. */
  getEvalSetResult(appName: string, evalSetResultId: string): Promise<EvalSetResult | undefined>;
  listEvalSetResults(appName: string): Promise<string[]>;
}

const SAFE_ID = /^[A-Za-z0-9_.-]+$/;

/** Ids become file names: letters, digits, `_`, `-` and `.` only, never `.` or `..`. */
export function isSafeId(id: string): boolean {
  return SAFE_ID.test(id) && id !== '.' && id !== '..';
}
