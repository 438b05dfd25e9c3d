import type { CitationMetadata, GroundingChunk, GroundingMetadata, LlmResponse } from '@adk/core';

/** A `source` content or stream part of the specification (URL or document). */
export interface SpecSource {
  type: 'source';
  sourceType: 'url' | 'document' | (string & {});
  id?: string;
  url?: string;
  title?: string;
  mediaType?: string;
  filename?: string;
}

/**
 * Sets the grounding and citation metadata of a response from the `source` parts of the answer
 * and the queries of provider-executed web searches: URL sources become `groundingChunks`
 * (`web.uri`, `web.title`, `web.domain`) and citations (`uri`, `title`); document sources
 * become citations with their title. Sources repeated by id or URL are kept once.
 */
export function applySources(
  response: LlmResponse,
  sources: readonly SpecSource[],
  queries: readonly string[],
): void {
  const chunks: GroundingChunk[] = [];
  const citations: NonNullable<CitationMetadata['citations']> = [];
  const seen = new Set<string>();
  for (const source of sources) {
    const key = source.url ?? source.id ?? source.title;
    if (key === undefined || seen.has(key)) continue;
    seen.add(key);
    if (source.sourceType === 'url' && source.url) {
      const web: NonNullable<GroundingChunk['web']> = { uri: source.url };
      if (source.title) web.title = source.title;
      const domain = hostOf(source.url);
      if (domain) web.domain = domain;
      chunks.push({ web });
      citations.push(source.title ? { uri: source.url, title: source.title } : { uri: source.url });
    } else if (source.title) {
      citations.push(
        source.filename
          ? { title: source.title, filename: source.filename }
          : { title: source.title },
      );
    }
  }
  if (chunks.length > 0 || queries.length > 0) {
    const grounding: GroundingMetadata = {};
    if (queries.length > 0) grounding.webSearchQueries = [...queries];
    if (chunks.length > 0) grounding.groundingChunks = chunks;
    response.groundingMetadata = grounding;
  }
  if (citations.length > 0) response.citationMetadata = { citations };
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}
