import type { ThinkingConfig, ThinkingLevel } from '@adk/core';

import type { ProviderFamily } from './provider-family';

/** The v4 specification's provider-neutral `reasoning` call option. */
export type SpecReasoning = 'provider-default' | 'none' | 'minimal' | 'low' | 'medium' | 'high';

/** Thinking budgets standing for each level where a provider takes budgets only. */
const LEVEL_BUDGETS: Readonly<Record<ThinkingLevel, number>> = {
  MINIMAL: 1024,
  LOW: 4096,
  MEDIUM: 10_000,
  HIGH: 32_000,
};

/** The smallest budget Anthropic (direct or on Bedrock) accepts. */
const MIN_BUDGET = 1024;

/** What a thinking config adds to the call options. */
export interface ThinkingCallOptions {
  /** Per-provider options (`{ anthropic: { thinking } }`...), under the caller's own. */
  providerOptions?: Record<string, Record<string, unknown>>;
  /** The v4 `reasoning` option (v4 models only). */
  reasoning?: SpecReasoning;
}

/**
 * Core's thinking config as AI SDK call options: the v4 `reasoning` option for v4 models, and for
 * the provider families whose options are known, their own reasoning settings:
 *
 * - Anthropic: `anthropic.thinking` `{ type: 'enabled', budgetTokens }` (a level as a budget),
 *   `{ type: 'disabled' }` for a budget of 0;
 * - OpenAI: `openai.reasoningEffort` (the level, or from the budget), and with `includeThoughts`
 *   on the Responses API `reasoningSummary: 'auto'`;
 * - Google (Gemini API and Vertex): `google.thinkingConfig` `{ thinkingBudget, thinkingLevel,
 *   includeThoughts }`;
 * - Amazon Bedrock: `bedrock.reasoningConfig` `{ type: 'enabled', budgetTokens }`.
 */
export function thinkingCallOptions(
  config: ThinkingConfig | undefined,
  family: ProviderFamily,
  version: string,
): ThinkingCallOptions {
  if (!config) return {};
  const result: ThinkingCallOptions = {};
  const effort = reasoningEffort(config);
  if (version === 'v4' && effort !== undefined) result.reasoning = effort;
  const options = familyOptions(config, family);
  if (options) result.providerOptions = options;
  return result;
}

function familyOptions(
  config: ThinkingConfig,
  family: ProviderFamily,
): Record<string, Record<string, unknown>> | undefined {
  switch (family) {
    case 'anthropic': {
      if (config.thinkingBudget === 0) return { anthropic: { thinking: { type: 'disabled' } } };
      const budget = budgetTokens(config);
      return budget === undefined
        ? undefined
        : { anthropic: { thinking: { type: 'enabled', budgetTokens: budget } } };
    }
    case 'bedrock': {
      if (config.thinkingBudget === 0)
        return { bedrock: { reasoningConfig: { type: 'disabled' } } };
      const budget = budgetTokens(config);
      return budget === undefined
        ? undefined
        : { bedrock: { reasoningConfig: { type: 'enabled', budgetTokens: budget } } };
    }
    case 'openai-responses':
    case 'openai-chat': {
      const openai: Record<string, unknown> = {};
      const effort = reasoningEffort(config);
      if (effort !== undefined && effort !== 'provider-default')
        openai.reasoningEffort = effort === 'none' ? 'minimal' : effort;
      if (config.includeThoughts && family === 'openai-responses') openai.reasoningSummary = 'auto';
      return Object.keys(openai).length > 0 ? { openai } : undefined;
    }
    case 'google': {
      const thinkingConfig: Record<string, unknown> = {};
      if (config.thinkingBudget !== undefined)
        thinkingConfig.thinkingBudget = config.thinkingBudget;
      if (config.thinkingLevel !== undefined)
        thinkingConfig.thinkingLevel = config.thinkingLevel.toLowerCase();
      if (config.includeThoughts !== undefined)
        thinkingConfig.includeThoughts = config.includeThoughts;
      return Object.keys(thinkingConfig).length > 0 ? { google: { thinkingConfig } } : undefined;
    }
    default:
      return undefined;
  }
}

/** A budget in tokens: a positive budget (at least 1024), `-1` as MEDIUM, else the level's. */
function budgetTokens(config: ThinkingConfig): number | undefined {
  const budget = config.thinkingBudget;
  if (budget !== undefined && budget > 0) return Math.max(MIN_BUDGET, budget);
  if (budget !== undefined && budget < 0) return LEVEL_BUDGETS[config.thinkingLevel ?? 'MEDIUM'];
  return config.thinkingLevel === undefined ? undefined : LEVEL_BUDGETS[config.thinkingLevel];
}

/** An effort: the level in lower case, else from the budget (0 none, -1 provider default). */
function reasoningEffort(config: ThinkingConfig): SpecReasoning | undefined {
  if (config.thinkingLevel !== undefined)
    return config.thinkingLevel.toLowerCase() as SpecReasoning;
  const budget = config.thinkingBudget;
  if (budget === undefined) return undefined;
  if (budget === 0) return 'none';
  if (budget < 0) return 'provider-default';
  if (budget <= 2048) return 'low';
  if (budget <= 16_384) return 'medium';
  return 'high';
}
