import type { ModelCapabilities } from '@adk/core';

/**
 * The major version of a Gemini model id (`gemini-3-pro-preview` → 3, `gemini-2.5-flash` → 2), or
 * `undefined` for ids that are not `gemini-<version>…` (Gemma, LearnLM, tuned endpoints). Vertex
 * AI resource paths (`projects/…/models/<id>`) are read by their last segment.
 */
export function geminiMajorVersion(modelId: string): number | undefined {
  const id = modelId.slice(modelId.lastIndexOf('/') + 1);
  const match = /^gemini-(\d+)(?:[.-]|$)/.exec(id);
  return match ? Number(match[1]) : undefined;
}

/** The provider-side tools Gemini 2 and later take. */
const GEMINI_PROVIDER_TOOLS = ['webSearch', 'urlContext', 'codeExecution'] as const;

/**
 * What a Gemini model declares to core. A response schema together with function declarations
 * is honoured by Gemini 3 and later on Vertex AI (the rule the Python ADK applies too); the
 * Gemini API, and earlier models anywhere, get `set_model_response` from core instead. Gemini 2
 * and later take the provider-side tools (`webSearch` as Google Search grounding, `urlContext`,
 * `codeExecution`); Gemini 3 and later also next to function declarations.
 */
export function geminiCapabilities(modelId: string, vertex: boolean): ModelCapabilities {
  const major = geminiMajorVersion(modelId);
  return {
    responseSchemaWithTools: vertex && major !== undefined && major >= 3,
    // Google Search grounding, URL context and code execution: Gemini 2 and later.
    providerTools: major !== undefined && major >= 2 ? GEMINI_PROVIDER_TOOLS : [],
    // Gemini 2.x answers 400 to built-in tools next to function declarations; Gemini 3 takes
    // both (with `toolConfig.includeServerSideToolInvocations`).
    providerToolsWithFunctions: major !== undefined && major >= 3,
  };
}
