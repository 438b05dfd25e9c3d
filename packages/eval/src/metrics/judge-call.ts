import type { GenerateContentConfig, Model } from '@adk/core';

import type { EvalMetric, JudgeModelOptions } from '../schema';
import type { MetricContext } from './evaluator';
import { textOf } from './invocation-text';

/** Python's default judge model and sample count. */
export const DEFAULT_JUDGE_MODEL = 'gemini-2.5-flash';
/** Python's default number of judge samples per invocation. */
export const DEFAULT_JUDGE_SAMPLES = 5;

/** The judge options of a metric (criterion first, then the metric's own, then Python's defaults). */
export function judgeOptionsOf(metric: EvalMetric): JudgeModelOptions {
  const options = metric.criterion?.judgeModelOptions ?? metric.judgeModelOptions;
  return {
    judgeModel: options?.judgeModel ?? DEFAULT_JUDGE_MODEL,
    numSamples: options?.numSamples ?? DEFAULT_JUDGE_SAMPLES,
    ...(options?.judgeModelConfig ? { judgeModelConfig: options.judgeModelConfig } : {}),
  };
}

/** Ask the judge once and return its text (non-streamed; partial chunks are ignored). */
export async function askJudge(
  model: Model,
  prompt: string,
  config: Record<string, unknown> | undefined,
  signal?: AbortSignal,
): Promise<string> {
  let text = '';
  const stream = model.generate(
    {
      model: model.name,
      contents: [{ role: 'user', parts: [{ text: prompt }] }],
      config: { ...(config as GenerateContentConfig | undefined) },
    },
    signal ? { stream: false, signal } : { stream: false },
  );
  for await (const response of stream) {
    if (response.partial) continue;
    if (response.errorCode) return '';
    text += textOf(response.content);
  }
  return text;
}

/** Ask the judge `numSamples` times, concurrently. */
export function sampleJudge(
  context: MetricContext,
  options: JudgeModelOptions,
  prompt: string,
  signal?: AbortSignal,
): Promise<string[]> {
  const model = context.judgeModel(options.judgeModel);
  return Promise.all(
    Array.from({ length: options.numSamples }, () =>
      askJudge(model, prompt, options.judgeModelConfig, signal),
    ),
  );
}
