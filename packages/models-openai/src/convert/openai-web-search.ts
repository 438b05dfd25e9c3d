import type { Citation, GroundingChunk, LlmResponse, ProviderToolSpec } from '@adk/core';
import { InvalidArgumentError } from '@adk/core';

/** An annotation of an answer: a web search citation (`url_citation`). */
export interface OpenAIAnnotation {
  type?: string;
  url_citation?: { start_index?: number; end_index?: number; url?: string; title?: string };
}

/**
 * Whether Chat Completions searches the web for `modelId`: only the search models
 * (`gpt-4o-search-preview`, `gpt-4o-mini-search-preview`, `gpt-5-search-api`...) take
 * `web_search_options`.
 */
export function isSearchModel(modelId: string): boolean {
  return /search/.test(modelId);
}

/**
 * The `web_search_options` of a request's provider tools (`webSearch`, its `options` merged in:
 * `search_context_size`, `user_location`), or `undefined` without one.
 *
 * @throws InvalidArgumentError for `urlContext` and `codeExecution`, which Chat Completions does
 * not offer.
 */
export function toWebSearchOptions(
  specs: readonly ProviderToolSpec[] | undefined,
): Record<string, unknown> | undefined {
  let options: Record<string, unknown> | undefined;
  for (const spec of specs ?? []) {
    if (spec.type !== 'webSearch') {
      throw new InvalidArgumentError({
        message: `Chat Completions has no "${spec.type}" provider tool; only web search (search models).`,
        argument: 'config.providerTools',
      });
    }
    options = { ...options, ...spec.options };
  }
  return options;
}

/**
 * Puts an answer's `url_citation` annotations on `response`: each as a citation (character
 * offsets in the answer), and the distinct pages as grounding chunks.
 */
export function applyAnnotations(
  response: LlmResponse,
  annotations: readonly OpenAIAnnotation[] | null | undefined,
): void {
  const citations: Citation[] = [];
  const chunks: GroundingChunk[] = [];
  const seen = new Set<string>();
  for (const annotation of annotations ?? []) {
    const cited = annotation.type === 'url_citation' ? annotation.url_citation : undefined;
    if (!cited?.url) continue;
    const citation: Citation = { uri: cited.url };
    if (cited.title) citation.title = cited.title;
    if (cited.start_index !== undefined) citation.startIndex = cited.start_index;
    if (cited.end_index !== undefined) citation.endIndex = cited.end_index;
    citations.push(citation);
    if (seen.has(cited.url)) continue;
    seen.add(cited.url);
    chunks.push({ web: cited.title ? { uri: cited.url, title: cited.title } : { uri: cited.url } });
  }
  if (citations.length === 0) return;
  response.citationMetadata = { citations };
  response.groundingMetadata = { groundingChunks: chunks };
}
