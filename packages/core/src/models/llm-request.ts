import type { Content } from '../content';
import type { CacheMetadata, ContextCacheConfig } from './context-cache';

/** A JSON Schema object (draft 2020-12 subset understood by every provider). */
export type JsonSchema = { [key: string]: unknown };

/** How a tool is described to a model. */
export interface FunctionDeclaration {
  name: string;
  description?: string;
  /** JSON Schema of the arguments object. */
  parameters?: JsonSchema;
  /** JSON Schema of the response object, when known. */
  response?: JsonSchema;
}

/** A group of tool declarations, as in the Gemini API's `tools` array. */
export interface ToolDeclarations {
  functionDeclarations: FunctionDeclaration[];
}

/** How the model may choose tools. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/**
 * Generation settings. Agents set defaults (`generateContentConfig`), `RunConfig` overrides them
 * key by key, and the flow adds the tool declarations.
 */
export interface GenerateContentConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  candidateCount?: number;
  /** `application/json` asks for JSON output. */
  responseMimeType?: string;
  /** JSON Schema the output must follow (structured output). */
  responseSchema?: JsonSchema;
  /** Thinking / reasoning settings, passed through to providers that support them. */
  thinkingConfig?: { includeThoughts?: boolean; thinkingBudget?: number };
  /** Tool declarations; filled by the flow from the agent's tools. */
  tools?: ToolDeclarations[];
  toolChoice?: ToolChoice;
  /** Free-form labels (for billing or tracing); providers may drop them. */
  labels?: Record<string, string>;
  /** Provider-specific options, passed through untouched (e.g. `{ anthropic: {...} }`). */
  providerOptions?: Record<string, Record<string, unknown>>;
}

/**
 * One provider-neutral model call. It is plain data: it can be logged, recorded and replayed.
 */
export interface LlmRequest {
  /** Model name, e.g. `gemini-2.5-flash`, `claude-sonnet-4-5`, `openai/gpt-4o`. */
  model: string;
  /** The system instruction, already compiled and templated. */
  systemInstruction?: string;
  /**
   * The start of `systemInstruction` that does not depend on the session (global and plain
   * instructions, identity, output-schema note, transfer block): byte-identical from one request
   * to the next while the agent is unchanged, whatever the state. Sections that may change
   * (instructions with template variables or given as functions, text added by tools) come after
   * it. Providers with explicit prompt caching put a cache breakpoint right after it (Anthropic's
   * `cache_control`); others get it as a stable prefix for their implicit caching. A provider must
   * check that `systemInstruction` still starts with it (a callback may have rewritten the
   * instruction). Unset when unknown.
   */
  staticInstruction?: string;
  /** The conversation, oldest first. Roles are `user` and `model` only. */
  contents: Content[];
  config: GenerateContentConfig;
  /**
   * The app's explicit context caching settings (`App({ contextCacheConfig })`); set by the flow
   * only when caching is on. Providers without explicit caching ignore it.
   */
  cacheConfig?: ContextCacheConfig;
  /** The agent's latest cache (or fingerprint) from the session's events, when caching is on. */
  cacheMetadata?: CacheMetadata;
  /** Prompt tokens of the agent's previous model call (checked against `cacheConfig.minTokens`). */
  cacheableContentsTokenCount?: number;
}
