import { defaultModelRegistry, type ModelRegistry } from '@adk/core';

import { createGemini, type GeminiProvider, type GeminiSettings } from './gemini-provider';

/**
 * Registers a Gemini provider with a model registry (the default one unless given), so agents can
 * say `model: 'gemini-2.5-flash'`. Returns the provider.
 *
 * @example
 * ```ts
 * registerGemini();   // key from GEMINI_API_KEY at call time
 * new LlmAgent({ name: 'assistant', model: 'gemini-2.5-flash' });
 * ```
 */
export function registerGemini(
  settings: GeminiSettings = {},
  registry: ModelRegistry = defaultModelRegistry,
): GeminiProvider {
  const provider = createGemini(settings);
  registry.register(provider);
  return provider;
}
