import type { Content } from '../content';
import type { LiveConnectConfig } from './live-connection';
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

/**
 * How hard a model thinks, provider-neutral (Gemini's `thinkingLevel` names). Providers without
 * levels map them: Anthropic to a thinking budget, OpenAI to `reasoning_effort`.
 */
export type ThinkingLevel = 'MINIMAL' | 'LOW' | 'MEDIUM' | 'HIGH';

/**
 * Thinking ("reasoning") settings, in the Gemini / ADK shape, mapped by every provider:
 *
 * - Gemini: sent as `generationConfig.thinkingConfig` (a level given to a Gemini 2.x model,
 *   which has no levels, is sent as the matching budget);
 * - Anthropic: a budget above 0 (or a level) turns on extended thinking
 *   (`thinking: { type: 'enabled', budget_tokens }`); thinking blocks come back as thought parts
 *   carrying their `signature` and are sent back unchanged on later turns, as the API requires;
 * - OpenAI Chat Completions: `reasoning_effort` from the level, or from the budget.
 */
export interface ThinkingConfig {
  /** Ask the model to return its thoughts (as parts with `thought: true`) when it can. */
  includeThoughts?: boolean;
  /**
   * Most tokens to spend thinking. `0` turns thinking off where the model allows it; `-1` lets
   * the model decide (Gemini's dynamic thinking).
   */
  thinkingBudget?: number;
  /** How hard to think, instead of a budget (Gemini 3, OpenAI reasoning effort). */
  thinkingLevel?: ThinkingLevel;
}

/** The kinds of provider-side tools: tools the provider runs, not the agent. */
export type ProviderToolType = 'webSearch' | 'urlContext' | 'codeExecution';

/**
 * A tool the provider runs itself. Each provider maps the type to its own tool: `webSearch` to
 * Gemini `googleSearch`, Anthropic `web_search` and OpenAI `web_search_options` (search models);
 * `urlContext` to Gemini `urlContext`; `codeExecution` to Gemini `codeExecution` and Anthropic
 * `code_execution`. `options` are provider wire fields merged into that tool as they are (for
 * example Anthropic `{ max_uses: 3 }`, OpenAI `{ search_context_size: 'low' }`).
 */
export interface ProviderToolSpec {
  type: ProviderToolType;
  options?: Record<string, unknown>;
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
  /**
   * Thinking / reasoning settings, mapped by each provider (Gemini `thinkingConfig`, Anthropic
   * extended thinking, OpenAI `reasoning_effort`). See {@link ThinkingConfig}.
   */
  thinkingConfig?: ThinkingConfig;
  /** Tool declarations; filled by the flow from the agent's tools. */
  tools?: ToolDeclarations[];
  /**
   * Tools the provider runs itself (web search, URL context, code execution); filled by the flow
   * from the agent's `ProviderTool`s. See {@link ProviderToolSpec}.
   */
  providerTools?: ProviderToolSpec[];
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
  /**
   * Index in `contents` of the agent's instruction when it travels in the conversation (an agent
   * with a `staticInstruction`): a user message that may change from one request to the next.
   * Every content before it is a prefix that only grows; providers with explicit prompt caching
   * put a cache breakpoint right before it (Anthropic's `cache_control`). Unset otherwise.
   */
  instructionContentIndex?: number;
  config: GenerateContentConfig;
  /** Settings of a live connection (`Runner.runLive` only; see {@link LiveConnectConfig}). */
  liveConnectConfig?: LiveConnectConfig;
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
