import {
  createProviderHttpClient,
  defineProvider,
  type CallableModelProvider,
  type ProviderHttpSettings,
} from '@adk/model-http';

import { GeminiModel } from './gemini-model';

/** Default base URL: the Gemini API (Google AI Studio keys). */
export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

/**
 * Settings of {@link createGemini}. The API key defaults to `GEMINI_API_KEY`, then `GOOGLE_API_KEY`,
 * then `GOOGLE_GENAI_API_KEY`, read when a call is made.
 */
export type GeminiSettings = ProviderHttpSettings;

/** A Gemini provider: call it with a model name (or use `languageModel(name)`). */
export type GeminiProvider = CallableModelProvider<GeminiModel>;

/** Model names a Gemini provider serves: `gemini-*`, `models/gemini-*`, `gemini/*` (LiteLLM style). */
export const GEMINI_MODEL_PATTERNS: ReadonlyArray<string | RegExp> = [
  /^gemini-/,
  /^models\//,
  /^gemini\//,
  /^gemma-/,
  /^learnlm-/,
];

/**
 * Creates a Gemini model provider.
 *
 * @example
 * ```ts
 * import { createGemini } from '@adk/models-gemini';
 * const gemini = createGemini({ apiKey: process.env.GEMINI_API_KEY });
 * const agent = new LlmAgent({ name: 'assistant', model: gemini('gemini-2.5-flash') });
 * ```
 */
export function createGemini(settings: GeminiSettings = {}): GeminiProvider {
  const http = createProviderHttpClient('gemini', settings, {
    baseURL: GEMINI_DEFAULT_BASE_URL,
  });
  return defineProvider({
    id: 'gemini',
    patterns: GEMINI_MODEL_PATTERNS,
    create: (name) => new GeminiModel(name, { http, apiKey: settings.apiKey }),
  });
}
