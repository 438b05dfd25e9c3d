import type { EvalCaseResult, EvalSetResult } from '../schema';

/**
 * A new {@link EvalSetResult} named as Python ADK names it: `<app>_<evalSetId>_<seconds since the
 * epoch>`, with `/` replaced by `_` in the name (also the file name in `.adk/eval_history/`).
 */
export function createEvalSetResult(
  appName: string,
  evalSetId: string,
  evalCaseResults: EvalCaseResult[],
  now = Date.now(),
): EvalSetResult {
  const timestamp = now / 1000;
  const id = `${appName}_${evalSetId}_${timestamp}`;
  return {
    evalSetResultId: id,
    evalSetResultName: id.replaceAll('/', '_'),
    evalSetId,
    evalCaseResults,
    creationTimestamp: timestamp,
  };
}
