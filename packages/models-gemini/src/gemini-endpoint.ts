import { MissingApiKeyError, resolveApiKey } from '@adk/model-http';

/** Environment variables read (in this order) when no `apiKey` is set. */
export const GEMINI_API_KEY_ENV_VARS = [
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'GOOGLE_GENAI_API_KEY',
] as const;

/** Default base URL: the Gemini API (Google AI Studio keys). */
export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

/**
 * Vertex AI settings of `createGemini`. With an `accessToken` (OAuth 2, for example from
 * google-auth-library) calls go to the project's regional endpoint; without one, an API key uses
 * Vertex AI express mode.
 */
export interface VertexAISettings {
  /** Google Cloud project id. Default: `GOOGLE_CLOUD_PROJECT`, read at call time. */
  project?: string;
  /** Region, or `global`. Default: `GOOGLE_CLOUD_LOCATION`, else `us-central1`. */
  location?: string;
  /**
   * OAuth 2 access token, or a function returning a fresh one (called before every request).
   * @example `accessToken: async () => (await new GoogleAuth({ scopes: 'https://www.googleapis.com/auth/cloud-platform' }).getAccessToken()) ?? ''`
   */
  accessToken?: string | (() => string | Promise<string>);
}

/** Where and how one request goes: the `models` collection path and the auth headers. */
export interface GeminiEndpoint {
  modelsPath: string;
  headers: Record<string, string>;
  /** True on Vertex AI (which accepts `labels`). */
  vertex: boolean;
}

/** Whether the settings (or `GOOGLE_GENAI_USE_VERTEXAI`) select Vertex AI. */
export function usesVertexAI(vertexai: VertexAISettings | boolean | undefined): boolean {
  if (vertexai !== undefined) return vertexai !== false;
  const flag = process.env.GOOGLE_GENAI_USE_VERTEXAI?.toLowerCase();
  return flag === 'true' || flag === '1';
}

/**
 * The default base URL for the chosen backend. For the Gemini API, `GOOGLE_GEMINI_BASE_URL` when
 * set, read as `@google/genai` reads it (the server's root, `/v1beta` appended): a proxy, or a
 * local fake server in tests.
 */
export function defaultBaseURL(vertexai: VertexAISettings | boolean | undefined): string {
  if (!usesVertexAI(vertexai)) {
    const root = process.env.GOOGLE_GEMINI_BASE_URL?.replace(/\/+$/, '');
    return root ? `${root}/v1beta` : GEMINI_DEFAULT_BASE_URL;
  }
  const settings = typeof vertexai === 'object' ? vertexai : {};
  const location = settings.location ?? process.env.GOOGLE_CLOUD_LOCATION ?? 'us-central1';
  if (!settings.accessToken || location === 'global') return 'https://aiplatform.googleapis.com/v1';
  return `https://${location}-aiplatform.googleapis.com/v1`;
}

/** Resolves the endpoint of one call (keys and tokens are read at call time). */
export async function resolveGeminiEndpoint(
  apiKey: string | undefined,
  vertexai: VertexAISettings | boolean | undefined,
): Promise<GeminiEndpoint> {
  if (!usesVertexAI(vertexai)) {
    const key = resolveApiKey(apiKey, 'gemini', GEMINI_API_KEY_ENV_VARS);
    return { modelsPath: '/models', headers: { 'x-goog-api-key': key }, vertex: false };
  }
  const settings = typeof vertexai === 'object' ? vertexai : {};
  if (settings.accessToken) {
    const token =
      typeof settings.accessToken === 'string'
        ? settings.accessToken
        : await settings.accessToken();
    const project = settings.project ?? process.env.GOOGLE_CLOUD_PROJECT;
    const location = settings.location ?? process.env.GOOGLE_CLOUD_LOCATION ?? 'us-central1';
    if (!project) {
      throw new MissingApiKeyError({
        provider: 'gemini (Vertex AI)',
        envVars: ['GOOGLE_CLOUD_PROJECT'],
        hint: 'Vertex AI with an access token needs a project: set `vertexai.project`.',
      });
    }
    return {
      modelsPath: `/projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(location)}/publishers/google/models`,
      headers: { authorization: `Bearer ${token}` },
      vertex: true,
    };
  }
  const key = apiKey ?? GEMINI_API_KEY_ENV_VARS.map((name) => process.env[name]).find(Boolean);
  if (!key) {
    throw new MissingApiKeyError({
      provider: 'gemini (Vertex AI)',
      envVars: GEMINI_API_KEY_ENV_VARS,
      hint: 'Or give `vertexai.accessToken` (OAuth 2) with `vertexai.project`.',
    });
  }
  return {
    modelsPath: '/publishers/google/models',
    headers: { 'x-goog-api-key': key },
    vertex: true,
  };
}
