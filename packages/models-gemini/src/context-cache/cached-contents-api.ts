import type { HttpClient } from '@adk/model-http';

import type { GeminiRequest } from '../convert/gemini-wire';
import type { GeminiEndpoint } from '../gemini-endpoint';

/** A `CachedContent` resource as the API answers it (the members read here). */
export interface GeminiCachedContent {
  /** `cachedContents/{id}` (Vertex AI: `projects/…/locations/…/cachedContents/{id}`). */
  name: string;
  model?: string;
  expireTime?: string;
  usageMetadata?: { totalTokenCount?: number };
}

/**
 * The `cachedContents` collection of the endpoint's API: `/cachedContents` on the Gemini API,
 * `/projects/{p}/locations/{l}/cachedContents` on Vertex AI (the `models` path without its
 * `/publishers/google/models` end).
 */
function collectionPath(endpoint: GeminiEndpoint): string {
  return `${endpoint.modelsPath.replace(/\/publishers\/google\/models$/, '').replace(/\/models$/, '')}/cachedContents`;
}

/** The model name a cache names: `models/{id}`, or the full publisher path on Vertex AI. */
function cacheModelName(endpoint: GeminiEndpoint, apiModelId: string): string {
  if (!endpoint.vertex) return `models/${apiModelId}`;
  const base = endpoint.modelsPath.replace(/^\//, '');
  return `${base}/${apiModelId}`;
}

/**
 * `cachedContents.create`: store the system instruction, tools, tool config and `contents` of a
 * request for `ttlSeconds`.
 */
export async function createCachedContent(
  http: HttpClient,
  endpoint: GeminiEndpoint,
  options: {
    model: string;
    apiModelId: string;
    prefix: Pick<GeminiRequest, 'contents' | 'systemInstruction' | 'tools' | 'toolConfig'>;
    ttlSeconds: number;
    displayName: string;
    signal?: AbortSignal | undefined;
  },
): Promise<GeminiCachedContent> {
  const body: Record<string, unknown> = {
    model: cacheModelName(endpoint, options.apiModelId),
    displayName: options.displayName,
    ttl: `${options.ttlSeconds}s`,
    contents: options.prefix.contents,
  };
  if (options.prefix.systemInstruction) body.systemInstruction = options.prefix.systemInstruction;
  if (options.prefix.tools) body.tools = options.prefix.tools;
  if (options.prefix.toolConfig) body.toolConfig = options.prefix.toolConfig;
  const { data } = await http.postJson<GeminiCachedContent>({
    model: options.model,
    path: collectionPath(endpoint),
    body,
    headers: endpoint.headers,
    signal: options.signal,
  });
  return data;
}

/** `cachedContents.delete` of the cache called `name`. */
export async function deleteCachedContent(
  http: HttpClient,
  endpoint: GeminiEndpoint,
  model: string,
  name: string,
): Promise<void> {
  const id = name.slice(name.lastIndexOf('/') + 1);
  await http.postJson({
    model,
    method: 'DELETE',
    path: `${collectionPath(endpoint)}/${encodeURIComponent(id)}`,
    body: undefined,
    headers: endpoint.headers,
  });
}
