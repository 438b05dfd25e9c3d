import {
  createProviderHttpClient,
  defineProvider,
  type CallableModelProvider,
  type ProviderHttpSettings,
} from '@adk/model-http';

import { AnthropicModel } from './anthropic-model';

/** Default base URL of the Anthropic API. */
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com/v1';

/** Settings of {@link createAnthropic}. The API key defaults to `ANTHROPIC_API_KEY`, read at call time. */
export interface AnthropicSettings extends ProviderHttpSettings {
  /** Default `max_tokens` when a request sets no `maxOutputTokens` (default: per model, see `defaultMaxTokens`). */
  maxTokens?: number;
  /** Beta features, sent as the `anthropic-beta` header (e.g. `['interleaved-thinking-2025-05-14']`). */
  betas?: string[];
  /**
   * Mark prompt-cache breakpoints (`cache_control: ephemeral`) on the system prompt, the last tool
   * and the end of the conversation. Cached input costs a tenth of normal input on reads. Default false.
   */
  promptCaching?: boolean;
}

/** An Anthropic provider: call it with a model name (or use `languageModel(name)`). */
export type AnthropicProvider = CallableModelProvider<AnthropicModel>;

/** Model names an Anthropic provider serves: `claude-*` and `anthropic/*` (LiteLLM style). */
export const ANTHROPIC_MODEL_PATTERNS: ReadonlyArray<string | RegExp> = [
  /^claude-/,
  /^anthropic\//,
];

/**
 * Creates an Anthropic (Claude) model provider.
 *
 * @example
 * ```ts
 * import { createAnthropic } from '@adk/models-anthropic';
 * const anthropic = createAnthropic({ apiKey: process.env.ANTHROPIC_API_KEY });
 * const agent = new LlmAgent({ name: 'assistant', model: anthropic('claude-sonnet-4-5') });
 * ```
 */
export function createAnthropic(settings: AnthropicSettings = {}): AnthropicProvider {
  const headers: Record<string, string> = {};
  if (settings.betas?.length) headers['anthropic-beta'] = settings.betas.join(',');
  const http = createProviderHttpClient('anthropic', settings, {
    baseURL: ANTHROPIC_DEFAULT_BASE_URL,
    headers,
  });
  return defineProvider({
    id: 'anthropic',
    patterns: ANTHROPIC_MODEL_PATTERNS,
    create: (name) =>
      new AnthropicModel(name, {
        http,
        apiKey: settings.apiKey,
        maxTokens: settings.maxTokens,
        promptCaching: settings.promptCaching,
        betas: settings.betas,
      }),
  });
}
