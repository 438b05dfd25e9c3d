import {
  UnsupportedProviderToolError,
  type ProviderToolSpec,
  type ProviderToolType,
} from '@adk/core';

import type { ProviderFamily } from './provider-family';

/** An AI SDK provider tool: `provider-defined` in v2, `provider` in v3 and v4. */
export interface SpecProviderTool {
  type: 'provider-defined' | 'provider';
  id: `${string}.${string}`;
  name: string;
  args: Record<string, unknown>;
}

/** The AI SDK tool (id and name) each core provider tool type maps to, per provider family. */
const TOOL_IDS: Partial<
  Record<
    NonNullable<ProviderFamily>,
    Partial<Record<ProviderToolType, { id: `${string}.${string}`; name: string }>>
  >
> = {
  anthropic: {
    webSearch: { id: 'anthropic.web_search_20250305', name: 'web_search' },
    codeExecution: { id: 'anthropic.code_execution_20250522', name: 'code_execution' },
  },
  'openai-responses': {
    webSearch: { id: 'openai.web_search', name: 'web_search' },
    codeExecution: { id: 'openai.code_interpreter', name: 'code_interpreter' },
  },
  google: {
    webSearch: { id: 'google.google_search', name: 'google_search' },
    urlContext: { id: 'google.url_context', name: 'url_context' },
    codeExecution: { id: 'google.code_execution', name: 'code_execution' },
  },
};

/** The provider tool types a family can take through the AI SDK (none for unknown providers). */
export function mappableProviderTools(family: ProviderFamily): ProviderToolType[] {
  return family ? (Object.keys(TOOL_IDS[family] ?? {}) as ProviderToolType[]) : [];
}

/**
 * Whether a family takes provider tools and function tools in one request: Anthropic and the
 * OpenAI Responses API do; Gemini through `@ai-sdk/google` drops function tools next to provider
 * tools, so it is declared as not combining them.
 */
export function combinesWithFunctions(family: ProviderFamily): boolean {
  return family === 'anthropic' || family === 'openai-responses';
}

/**
 * Core's provider tools as AI SDK provider tools of the model's specification version; a tool's
 * `options` become the tool's `args` as they are (AI SDK names: `maxUses`, `allowedDomains`,
 * `searchContextSize`...).
 *
 * @throws UnsupportedProviderToolError for a type the model's provider family cannot take (an
 *   agent normally fails earlier, at construction, from the model's capabilities).
 */
export function toProviderTools(
  specs: readonly ProviderToolSpec[],
  family: ProviderFamily,
  version: string,
  modelName: string,
): SpecProviderTool[] {
  const type = version === 'v2' ? 'provider-defined' : 'provider';
  return specs.map((spec) => {
    const tool = family ? TOOL_IDS[family]?.[spec.type] : undefined;
    if (!tool) {
      throw new UnsupportedProviderToolError({
        modelName,
        toolType: spec.type,
        supported: mappableProviderTools(family),
      });
    }
    return { type, id: tool.id, name: tool.name, args: { ...(spec.options ?? {}) } };
  });
}
