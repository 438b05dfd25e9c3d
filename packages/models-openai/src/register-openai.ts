import { defaultModelRegistry, type ModelRegistry } from '@adk/core';

import { createOpenAI, type OpenAIProvider, type OpenAISettings } from './openai-provider';

/**
 * Registers an OpenAI-compatible provider with a model registry (the default one unless given),
 * so agents can say `model: 'openai/gpt-4o'`. Returns the provider.
 *
 * @example
 * ```ts
 * registerOpenAI(); // OPENAI_API_KEY / OPENAI_BASE_URL
 * registerOpenAI({ id: 'litellm', baseURL: 'http://127.0.0.1:4000', modelPatterns: [/\//] });
 * ```
 */
export function registerOpenAI(
  settings: OpenAISettings = {},
  registry: ModelRegistry = defaultModelRegistry,
): OpenAIProvider {
  const provider = createOpenAI(settings);
  registry.register(provider);
  return provider;
}
