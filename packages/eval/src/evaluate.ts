import { existsSync } from 'node:fs';

import { defaultModelRegistry, type BaseAgent, type Model, type ModelRegistry } from '@adk/core';

import { loadEvalConfig, metricsFromConfig } from './formats/eval-config-file';
import { loadEvalSetFile } from './formats/eval-set-file';
import type { MetricRegistry } from './metrics/metric-registry';
import { RecordingModel } from './record/recording-model';
import { ReplayModel } from './record/replay-model';
import { wrapAgentModels } from './record/wrap-agent-models';
import { evalTargetFromAgent } from './runner/eval-target';
import {
  evaluateEvalSet,
  type EvalProgress,
  type EvalSetOutcome,
} from './runner/evaluate-eval-set';
import { LlmUserSimulator, type UserSimulator } from './runner/user-simulator';
import type { EvalMetric, EvalSet } from './schema';

/** Options of {@link evaluate}. */
export interface EvaluateOptions {
  /** `test_config.json` to use (default: the one beside the eval set file, else Python's defaults). */
  configFile?: string;
  /** Metrics to compute instead of a config file's. */
  metrics?: readonly EvalMetric[];
  /** Only these cases. */
  caseIds?: readonly string[];
  numRuns?: number;
  concurrency?: number;
  registry?: MetricRegistry;
  judgeModel?: Model | ((name: string) => Model);
  userSimulator?: UserSimulator;
  /** App name of the eval sessions (default: the agent's name). */
  appName?: string;
  /**
   * A JSONL cassette for the agent's models: `record` calls the real models and writes it,
   * `replay` serves it (a request it does not hold fails with `ReplayMissError`), `auto` (the
   * default) replays when the file exists, else records. The agent tree's models are swapped in
   * place (see `wrapAgentModels`): pass an agent made for the eval.
   */
  cassette?: string;
  cassetteMode?: 'record' | 'replay' | 'auto';
  /** Resolves model names when recording (default: core's registry). */
  models?: ModelRegistry;
  /**
   * Derive the ids of each case run from the eval set, case and run instead of drawing them at
   * random (see `EvaluateEvalSetOptions.deterministicIds`); default true when a cassette is
   * replayed, so that replays give identical results apart from timestamps.
   */
  deterministicIds?: boolean;
  /** Called after each case run. */
  onProgress?(progress: EvalProgress): void;
  signal?: AbortSignal;
}

/**
 * Evaluate `agent` on an eval set (a `*.evalset.json` or `*.test.json` path, or a loaded set)
 * with the config's metrics and thresholds. Optionally records or replays its model calls.
 *
 * @example
 * ```ts
 * const outcome = await evaluate(agent, 'evals/weather.evalset.json', { cassette: 'evals/weather.cassette.jsonl' });
 * console.log(outcome.passed);
 * ```
 */
export async function evaluate(
  agent: BaseAgent,
  evalSet: string | EvalSet,
  options: EvaluateOptions = {},
): Promise<EvalSetOutcome> {
  const file = typeof evalSet === 'string' ? evalSet : undefined;
  const set = typeof evalSet === 'string' ? await loadEvalSetFile(evalSet) : evalSet;
  const config = await loadEvalConfig(options.configFile, file);
  const metrics = options.metrics ?? metricsFromConfig(config);
  const userSimulator =
    options.userSimulator ??
    (set.evalCases.some((c) => c.conversationScenario)
      ? simulatorFromConfig(config.userSimulatorConfig, options)
      : undefined);
  let replaying = false;
  let unwrap: (() => void) | undefined;
  if (options.cassette !== undefined) {
    const mode = options.cassetteMode ?? 'auto';
    if (mode === 'replay' || (mode === 'auto' && existsSync(options.cassette))) {
      replaying = true;
      const replay = await ReplayModel.fromFile(options.cassette);
      unwrap = wrapAgentModels(agent, (name) => replay.as(name), options.models);
    } else {
      const cassette = options.cassette;
      unwrap = wrapAgentModels(
        agent,
        (_name, resolve) => new RecordingModel(resolve(), { cassette }),
        options.models,
      );
    }
  }
  try {
    return await runEvaluation();
  } finally {
    unwrap?.();
  }

  function runEvaluation(): Promise<EvalSetOutcome> {
    return evaluateEvalSet({
      target: evalTargetFromAgent(agent, {
        ...(options.appName ? { appName: options.appName } : {}),
        ...(options.models ? { runner: { models: options.models } } : {}),
      }),
      evalSet: set,
      metrics,
      ...(options.caseIds ? { caseIds: options.caseIds } : {}),
      ...(options.numRuns ? { numRuns: options.numRuns } : {}),
      ...(options.concurrency ? { concurrency: options.concurrency } : {}),
      ...(options.registry ? { registry: options.registry } : {}),
      ...(options.judgeModel ? { judgeModel: options.judgeModel } : {}),
      ...(userSimulator ? { userSimulator } : {}),
      ...((options.deterministicIds ?? replaying) ? { deterministicIds: true } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }
}

/**
 * Python's `user_simulator_config` (`model`, default `gemini-2.5-flash`; `model_configuration`;
 * `max_allowed_invocations`, default 20) as an {@link LlmUserSimulator}. The model comes from
 * `judgeModel` when it is a function of the name, else from the model registry.
 */
function simulatorFromConfig(
  config: Record<string, unknown> | undefined,
  options: EvaluateOptions,
): UserSimulator {
  const name = typeof config?.model === 'string' ? config.model : 'gemini-2.5-flash';
  const model =
    typeof options.judgeModel === 'function'
      ? options.judgeModel(name)
      : (options.models ?? defaultModelRegistry).resolve(name);
  const max = config?.max_allowed_invocations ?? config?.maxAllowedInvocations;
  const modelConfig = config?.model_configuration ?? config?.modelConfiguration;
  return new LlmUserSimulator({
    model,
    ...(typeof max === 'number' ? { maxAllowedInvocations: max } : {}),
    ...(typeof modelConfig === 'object' && modelConfig !== null
      ? { config: modelConfig as Record<string, unknown> }
      : {}),
  });
}
