import type { Citation, CitationMetadata, GroundingMetadata, LlmResponse } from '@adk/core';

import type { GeminiCandidate } from './gemini-wire';

/**
 * Copies a candidate's grounding metadata (Google Search, URL context) onto `response` as it is,
 * and its citation metadata with its sources under `citations` (the Gemini API names them
 * `citationSources`, Vertex AI `citations`).
 */
export function applyGeminiGrounding(
  response: LlmResponse,
  candidate: GeminiCandidate | undefined,
): void {
  if (!candidate) return;
  if (candidate.groundingMetadata && typeof candidate.groundingMetadata === 'object') {
    response.groundingMetadata = candidate.groundingMetadata as GroundingMetadata;
  }
  const citation = candidate.citationMetadata as
    { citations?: Citation[]; citationSources?: Citation[] } | undefined;
  if (citation && typeof citation === 'object') {
    const { citationSources, ...rest } = citation;
    const metadata: CitationMetadata = { ...rest };
    const sources = citation.citations ?? citationSources;
    if (sources) metadata.citations = sources;
    response.citationMetadata = metadata;
  }
}
