import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { EVAL_CONFIG_SPEC, evalConfigSchema, type EvalConfig, type EvalMetric } from '../schema';
import { toCamelKeys } from '../schema/key-spec';
import { EVAL_CRITERION_SPEC } from '../schema/eval-config-schema';
import { parseJsonText, parseModel } from './parse-model';

/** Python's default criteria when no config is given. */
export const DEFAULT_EVAL_CONFIG: EvalConfig = {
  criteria: { tool_trajectory_avg_score: 1.0, response_match_score: 0.8 },
};

/** Read a `test_config.json` object (either spelling of every field). */
export function parseEvalConfig(json: unknown, file = '<eval config>'): EvalConfig {
  const config = parseModel(evalConfigSchema, EVAL_CONFIG_SPEC, json, file);
  // Criteria keys are metric names: only the criteria themselves are converted.
  const criteria: EvalConfig['criteria'] = {};
  const raw = (json as { criteria?: Record<string, unknown> }).criteria ?? {};
  for (const [name, value] of Object.entries(raw)) {
    criteria[name] =
      typeof value === 'number'
        ? value
        : parseModel(
            evalConfigSchema.shape.criteria.unwrap().valueType,
            'leaf',
            toCamelKeys(value, EVAL_CRITERION_SPEC),
            `${file} (criteria.${name})`,
          );
  }
  return { ...config, criteria };
}

/**
 * Load the eval config at `path`; without a path (or when the file does not exist), the
 * `test_config.json` beside `evalSetFile` if there is one, else {@link DEFAULT_EVAL_CONFIG}, as
 * Python ADK does.
 */
export async function loadEvalConfig(path?: string, evalSetFile?: string): Promise<EvalConfig> {
  const candidate =
    path ??
    (evalSetFile === undefined ? undefined : join(dirname(evalSetFile), 'test_config.json'));
  if (candidate === undefined || !existsSync(candidate)) return DEFAULT_EVAL_CONFIG;
  return parseEvalConfig(parseJsonText(await readFile(candidate, 'utf8'), candidate), candidate);
}

/** The metrics a config asks for, each with its threshold and criterion. */
export function metricsFromConfig(config: EvalConfig): EvalMetric[] {
  return Object.entries(config.criteria).map(([metricName, criterion]) => {
    const path = config.customMetrics?.[metricName]?.codeConfig.name;
    const base =
      typeof criterion === 'number'
        ? { metricName, threshold: criterion, criterion: { threshold: criterion } }
        : { metricName, threshold: criterion.threshold, criterion };
    return path === undefined ? base : { ...base, customFunctionPath: path };
  });
}
