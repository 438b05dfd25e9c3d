import type { ThinkingConfig, ThinkingLevel } from '@adk/core';

import { geminiMajorVersion } from '../gemini-capabilities';

/**
 * Thinking budgets standing for a {@link ThinkingLevel} on Gemini 2.x models, which take a budget
 * and no level (Gemini 3 takes `thinkingLevel` itself).
 */
export const GEMINI_LEVEL_BUDGETS: Readonly<Record<ThinkingLevel, number>> = {
  MINIMAL: 512,
  LOW: 2048,
  MEDIUM: 8192,
  HIGH: 24576,
};

/**
 * The `generationConfig.thinkingConfig` of a request to `modelId`: the members as they are
 * (`includeThoughts`, `thinkingBudget`, `thinkingLevel`), except that a level sent to a Gemini
 * 2.x model (no levels there) becomes the matching budget of {@link GEMINI_LEVEL_BUDGETS}, unless
 * a budget is set too.
 */
export function toGeminiThinkingConfig(
  config: ThinkingConfig,
  modelId: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...config };
  const level = config.thinkingLevel;
  const major = geminiMajorVersion(modelId);
  if (level !== undefined && major !== undefined && major < 3) {
    delete out.thinkingLevel;
    out.thinkingBudget ??= GEMINI_LEVEL_BUDGETS[level];
  }
  return out;
}
