import type { GenerateContentConfig } from '@adk/core';

const KEYS: Record<string, keyof GenerateContentConfig> = {
  temperature: 'temperature',
  top_p: 'topP',
  topP: 'topP',
  top_k: 'topK',
  topK: 'topK',
  max_output_tokens: 'maxOutputTokens',
  maxOutputTokens: 'maxOutputTokens',
  stop_sequences: 'stopSequences',
  stopSequences: 'stopSequences',
  presence_penalty: 'presencePenalty',
  presencePenalty: 'presencePenalty',
  frequency_penalty: 'frequencyPenalty',
  frequencyPenalty: 'frequencyPenalty',
  seed: 'seed',
  candidate_count: 'candidateCount',
  candidateCount: 'candidateCount',
  response_mime_type: 'responseMimeType',
  responseMimeType: 'responseMimeType',
  labels: 'labels',
};

/**
 * Core's generation settings from a config's `generate_content_config`, in snake_case or camelCase
 * as Python's loader takes them; `thinking_config` too. Other Gemini fields (`safety_settings`...)
 * go to `providerOptions.gemini` untouched.
 */
export function generateContentConfigOf(
  raw: Record<string, unknown>,
  fail: (key: string, problem: string) => never,
): GenerateContentConfig {
  const config: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const target = KEYS[key];
    if (target) {
      config[target] = value;
    } else if (key === 'thinking_config' || key === 'thinkingConfig') {
      if (value === null || typeof value !== 'object') fail(key, 'must be a mapping.');
      const thinking = value as Record<string, unknown>;
      config.thinkingConfig = {
        ...((thinking.include_thoughts ?? thinking.includeThoughts) !== undefined
          ? { includeThoughts: thinking.include_thoughts ?? thinking.includeThoughts }
          : {}),
        ...((thinking.thinking_budget ?? thinking.thinkingBudget) !== undefined
          ? { thinkingBudget: thinking.thinking_budget ?? thinking.thinkingBudget }
          : {}),
        ...((thinking.thinking_level ?? thinking.thinkingLevel) !== undefined
          ? { thinkingLevel: thinking.thinking_level ?? thinking.thinkingLevel }
          : {}),
      };
    } else {
      rest[key] = value;
    }
  }
  for (const [key, value] of Object.entries(config)) {
    const numeric = [
      'temperature',
      'topP',
      'topK',
      'maxOutputTokens',
      'presencePenalty',
      'frequencyPenalty',
      'seed',
      'candidateCount',
    ];
    if (numeric.includes(key) && typeof value !== 'number')
      fail(key, `must be a number, got ${JSON.stringify(value)}.`);
  }
  if (Object.keys(rest).length > 0) config.providerOptions = { gemini: rest };
  return config as GenerateContentConfig;
}
