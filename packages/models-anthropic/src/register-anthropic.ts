import { defaultModelRegistry, type ModelRegistry } from '@adk/core';

import {
  createAnthropic,
  type AnthropicProvider,
  type AnthropicSettings,
} from './anthropic-provider';

/**
 * Registers an Anthropic provider with a model registry (the default one unless given), so agents
 * can say `model: 'claude-sonnet-4-5'`. Returns the provider.
 *
 * @example
 * ```ts
 * registerAnthropic(); // key from ANTHROPIC_API_KEY at call time
 * new LlmAgent({ name: 'assistant', model: 'claude-sonnet-4-5' });
 * ```
 */
export function registerAnthropic(
  settings: AnthropicSettings = {},
  registry: ModelRegistry = defaultModelRegistry,
): AnthropicProvider {
  const provider = createAnthropic(settings);
  registry.register(provider);
  return provider;
}
