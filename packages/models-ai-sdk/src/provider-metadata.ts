/**
 * Prefix of a part's `thoughtSignature` holding an AI SDK part's provider metadata (JSON): the
 * Anthropic thinking `signature` or `redactedData`, OpenAI reasoning item ids and encrypted
 * content, Gemini thought signatures. Sent back unchanged as the prompt part's `providerOptions`,
 * which is how AI SDK providers expect them on later turns.
 */
export const PROVIDER_METADATA_PREFIX = 'ai-sdk:';

/**
 * Text of a thought that has no text but provider metadata (Anthropic redacted thinking, OpenAI
 * encrypted reasoning without a summary): core leaves empty parts out of the history, so the part
 * carries this text, and it goes back to the provider as an empty reasoning part.
 */
export const EMPTY_THOUGHT_TEXT = '[reasoning not shown by the provider]';

/** Provider metadata as a {@link PROVIDER_METADATA_PREFIX}ed signature; undefined when empty. */
export function encodeProviderMetadata(metadata: unknown): string | undefined {
  if (metadata === null || typeof metadata !== 'object') return undefined;
  if (Object.keys(metadata).length === 0) return undefined;
  return `${PROVIDER_METADATA_PREFIX}${JSON.stringify(metadata)}`;
}

/**
 * The provider options kept in a signature by {@link encodeProviderMetadata}; undefined for a
 * signature of another provider (a Gemini or Anthropic model used before in the session), which
 * an AI SDK provider could not read.
 */
export function decodeProviderMetadata(
  signature: string | undefined,
): Record<string, Record<string, unknown>> | undefined {
  if (!signature?.startsWith(PROVIDER_METADATA_PREFIX)) return undefined;
  try {
    const value: unknown = JSON.parse(signature.slice(PROVIDER_METADATA_PREFIX.length));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, Record<string, unknown>>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Merges provider metadata per provider key (later members win), as streamed parts add to it. */
export function mergeProviderMetadata(
  into: Record<string, Record<string, unknown>> | undefined,
  more: unknown,
): Record<string, Record<string, unknown>> | undefined {
  if (more === null || typeof more !== 'object') return into;
  const merged = { ...(into ?? {}) };
  for (const [key, value] of Object.entries(more as Record<string, unknown>)) {
    if (value !== null && typeof value === 'object')
      merged[key] = { ...(merged[key] ?? {}), ...(value as Record<string, unknown>) };
  }
  return merged;
}
