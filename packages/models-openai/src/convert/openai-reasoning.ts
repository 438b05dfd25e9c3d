import type { ThinkingConfig } from '@adk/core';

/** A Chat Completions `reasoning_effort`. */
export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

/**
 * The `reasoning_effort` of a thinking config (reasoning models: o-series, GPT-5): the level in
 * lower case; else from the budget: `0` → `minimal`, up to 2048 tokens → `low`, up to 16384 →
 * `medium`, more → `high`; `-1` (let the model decide) and no setting → `undefined` (the
 * model's default).
 */
export function toReasoningEffort(config: ThinkingConfig | undefined): ReasoningEffort | undefined {
  if (!config) return undefined;
  if (config.thinkingLevel !== undefined)
    return config.thinkingLevel.toLowerCase() as ReasoningEffort;
  const budget = config.thinkingBudget;
  if (budget === undefined || budget < 0) return undefined;
  if (budget === 0) return 'minimal';
  if (budget <= 2048) return 'low';
  if (budget <= 16_384) return 'medium';
  return 'high';
}
