import type { ThinkingConfig, ThinkingLevel } from '@adk/core';

/** The smallest `budget_tokens` the Messages API accepts. */
export const ANTHROPIC_MIN_THINKING_BUDGET = 1024;

/** Thinking budgets standing for each {@link ThinkingLevel} (the Messages API takes budgets only). */
export const ANTHROPIC_LEVEL_BUDGETS: Readonly<Record<ThinkingLevel, number>> = {
  MINIMAL: 1024,
  LOW: 4096,
  MEDIUM: 10_000,
  HIGH: 32_000,
};

/**
 * The `budget_tokens` of extended thinking for a thinking config, or `undefined` when thinking
 * stays off: a positive budget (at least {@link ANTHROPIC_MIN_THINKING_BUDGET}); `-1` (let the
 * model decide) as the `MEDIUM` budget; else the level's budget. A budget of `0` turns it off.
 */
export function anthropicThinkingBudget(config: ThinkingConfig | undefined): number | undefined {
  if (!config) return undefined;
  const budget = config.thinkingBudget;
  if (budget !== undefined) {
    if (budget === 0) return undefined;
    if (budget < 0) return ANTHROPIC_LEVEL_BUDGETS[config.thinkingLevel ?? 'MEDIUM'];
    return Math.max(ANTHROPIC_MIN_THINKING_BUDGET, budget);
  }
  return config.thinkingLevel === undefined
    ? undefined
    : ANTHROPIC_LEVEL_BUDGETS[config.thinkingLevel];
}
