import type { GeminiEndpoint } from '../gemini-endpoint';

/** The API version of the Live API on Vertex AI (`LlmBidiService` is served in v1beta1). */
export const VERTEX_LIVE_API_VERSION = 'v1beta1';

/** Where a live connection goes: the WebSocket URL, its headers and the setup's model name. */
export interface LiveSocketTarget {
  url: string;
  headers: Record<string, string>;
  /** `models/{id}` (Gemini API) or `[projects/{p}/locations/{l}/]publishers/google/models/{id}`. */
  model: string;
}

/**
 * Derives the Live API target from the provider's REST `baseURL` (scheme to `ws`/`wss`, the
 * trailing API version removed, a proxy's path prefix kept) and the resolved endpoint:
 * `/ws/google.ai.generativelanguage.{version}.GenerativeService.BidiGenerateContent` on the Gemini
 * API (the version taken from `baseURL`, `v1beta` by default), or
 * `/ws/google.cloud.aiplatform.v1beta1.LlmBidiService/BidiGenerateContent` on Vertex AI. The
 * endpoint's auth header (`x-goog-api-key` or a bearer token) goes in the upgrade request.
 */
export function liveSocketTarget(options: {
  baseURL: string;
  endpoint: GeminiEndpoint;
  apiModelId: string;
  headers?: Record<string, string> | undefined;
  query?: Record<string, string> | undefined;
}): LiveSocketTarget {
  const url = new URL(options.baseURL);
  url.protocol = url.protocol === 'http:' || url.protocol === 'ws:' ? 'ws:' : 'wss:';
  const path = url.pathname.replace(/\/+$/, '');
  const version = /\/(v\d+\w*)$/.exec(path)?.[1];
  const prefix = version ? path.slice(0, -version.length - 1) : path;
  const service = options.endpoint.vertex
    ? `google.cloud.aiplatform.${VERTEX_LIVE_API_VERSION}.LlmBidiService/BidiGenerateContent`
    : `google.ai.generativelanguage.${version ?? 'v1beta'}.GenerativeService.BidiGenerateContent`;
  url.pathname = `${prefix}/ws/${service}`;
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
  const modelsPath = options.endpoint.modelsPath.replace(/^\/+/, '');
  return {
    url: url.toString(),
    headers: { ...options.headers, ...options.endpoint.headers },
    model: `${modelsPath}/${options.apiModelId}`,
  };
}
