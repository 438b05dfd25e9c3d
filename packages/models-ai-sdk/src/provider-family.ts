/**
 * The provider family of an AI SDK model, read from its `provider` string (`anthropic.messages`,
 * `openai.responses`, `google.generative-ai`, `google.vertex.chat`, `amazon-bedrock`...): it
 * decides the `providerOptions` key that carries thinking settings and which provider tools the
 * model takes. `undefined` for any other provider.
 */
export type ProviderFamily =
  'anthropic' | 'openai-responses' | 'openai-chat' | 'google' | 'bedrock' | undefined;

/** The family of a provider string (see {@link ProviderFamily}). */
export function providerFamily(provider: string): ProviderFamily {
  if (provider.startsWith('anthropic') || provider.endsWith('anthropic.messages'))
    return 'anthropic';
  if (provider === 'openai.responses' || provider === 'azure.responses') return 'openai-responses';
  if (provider.startsWith('openai.') || provider.startsWith('azure.')) return 'openai-chat';
  if (provider.startsWith('google.')) return 'google';
  if (provider.startsWith('amazon-bedrock') || provider.startsWith('bedrock')) return 'bedrock';
  return undefined;
}
