import type { AdkEvent } from '../api/types';

/** A page an answer was grounded on or cites. */
export interface Source {
  uri: string;
  title: string;
}

/**
 * The sources of an answer event, once each in order of first mention: the pages of its
 * `groundingMetadata` (web search, URL context), then those its `citationMetadata` cites. Only
 * `http(s)` links are kept (a source is shown as a link).
 */
export function eventSources(event: AdkEvent): Source[] {
  const found = new Map<string, Source>();
  const add = (uri: unknown, title: unknown) => {
    if (typeof uri !== 'string' || !/^https?:\/\//i.test(uri) || found.has(uri)) return;
    found.set(uri, { uri, title: typeof title === 'string' && title ? title : hostOf(uri) });
  };
  for (const chunk of event.groundingMetadata?.groundingChunks ?? []) {
    const page = chunk.web ?? chunk.retrievedContext;
    add(page?.uri, page?.title);
  }
  for (const citation of event.citationMetadata?.citations ?? []) add(citation.uri, citation.title);
  return [...found.values()];
}

/** The web searches an answer event ran. */
export function eventSearchQueries(event: AdkEvent): string[] {
  return (event.groundingMetadata?.webSearchQueries ?? []).filter(
    (query): query is string => typeof query === 'string' && query !== '',
  );
}

function hostOf(uri: string): string {
  try {
    return new URL(uri).hostname;
  } catch {
    return uri;
  }
}
