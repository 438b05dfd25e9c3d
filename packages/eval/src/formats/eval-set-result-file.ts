import { EVAL_SET_RESULT_SPEC, evalSetResultSchema, type EvalSetResult } from '../schema';
import { toWireKeys } from '../schema/key-spec';
import { parseJsonText, parseModel } from './parse-model';

/** Suffix of result files in `.adk/eval_history/`. */
export const EVAL_SET_RESULT_FILE_SUFFIX = '.evalset_result.json';

/**
 * Read an eval set result file. Python ADK writes the result's JSON as a JSON **string** (its
 * `json.dump` of `model_dump_json()`); both that and a plain JSON object are read.
 */
export function parseEvalSetResult(text: string, file = '<eval set result>'): EvalSetResult {
  let json = parseJsonText(text, file);
  if (typeof json === 'string') json = parseJsonText(json, file);
  return parseModel(evalSetResultSchema, EVAL_SET_RESULT_SPEC, json, file);
}

/** An eval set result in Python's spelling (`snake` for files, `alias` for HTTP answers). */
export function serializeEvalSetResult(
  result: EvalSetResult,
  style: 'snake' | 'alias' = 'snake',
): unknown {
  return toWireKeys(result, EVAL_SET_RESULT_SPEC, style);
}

/**
 * The text of a result file as Python ADK writes it: the snake_case JSON, encoded once more as a
 * JSON string, so Python's reader (`json.load` then `model_validate_json`) loads it unchanged.
 */
export function formatEvalSetResultFile(result: EvalSetResult): string {
  return JSON.stringify(JSON.stringify(serializeEvalSetResult(result, 'snake')));
}
