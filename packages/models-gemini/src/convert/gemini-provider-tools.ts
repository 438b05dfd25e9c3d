import type { ProviderToolSpec, ProviderToolType } from '@adk/core';

/** The Gemini `Tool` member standing for each provider-neutral tool type. */
const GEMINI_TOOL_FIELDS: Readonly<Record<ProviderToolType, string>> = {
  webSearch: 'googleSearch',
  urlContext: 'urlContext',
  codeExecution: 'codeExecution',
};

/**
 * The Gemini `tools` entries of provider-side tools: `{ googleSearch: {} }` (Google Search
 * grounding), `{ urlContext: {} }`, `{ codeExecution: {} }`, each tool's `options` as the
 * member's value (e.g. `{ timeRangeFilter: {...} }` for Google Search).
 */
export function toGeminiProviderTools(
  tools: readonly ProviderToolSpec[] | undefined,
): Array<Record<string, unknown>> {
  return (tools ?? []).map((tool) => ({ [GEMINI_TOOL_FIELDS[tool.type]]: { ...tool.options } }));
}
