import type { LlmRequest, ProviderToolType } from './llm-request';
import type { LiveConnectOptions, LiveConnection } from './live-connection';
import type { LlmResponse } from './llm-response';

/** Per-call options of {@link Model.generate}. */
export interface GenerateOptions {
  /** Stream partial chunks (see the streaming contract on {@link LlmResponse}). */
  stream: boolean;
  /** Aborts the call; the model must stop promptly and throw the signal's reason. */
  signal?: AbortSignal | undefined;
}

/**
 * What a model can do beyond the basic contract, declared by its provider (`Model.capabilities`).
 *
 * Versioning: every member is optional and new members may be added in minor versions. An absent
 * member, or absent `capabilities`, means **no**: a model that declares nothing gets the
 * conservative behaviour, which works with every model that can call functions. A provider sets
 * a member to `true` only where the API is known to honour it.
 */
export interface ModelCapabilities {
  /**
   * Whether one request may carry function declarations **and** a response schema
   * (`config.responseSchema`), the model calling tools first and finally answering with JSON that
   * follows the schema. When it is not `true`, an agent with an `outputSchema` and tools sends no
   * response schema; it offers the `set_model_response` tool instead, whose parameters are the
   * schema, and the flow turns the tool's validated arguments into the agent's final answer.
   */
  readonly responseSchemaWithTools?: boolean;
  /**
   * The provider-side tools this model takes (`ProviderToolSpec` types). An agent whose tools
   * include a `ProviderTool` of a type not listed fails with `UnsupportedProviderToolError` when
   * it is built with this model, or when its model name is first resolved, before any request.
   */
  readonly providerTools?: readonly ProviderToolType[];
  /**
   * Whether one request may carry provider tools **and** function declarations (the agent's
   * function tools, `transfer_to_agent`...). When it is not `true`, such an agent fails with
   * `UnsupportedProviderToolError` (as for a provider tool the model does not take).
   */
  readonly providerToolsWithFunctions?: boolean;
}

/**
 * The model contract: a name and one streaming generate method over the provider-neutral
 * request and response. Small on purpose, so that any provider (or a wrapper around another SDK)
 * can implement it in a few dozen lines.
 *
 * Errors: a failed call throws (provider packages throw typed `ModelApiError`s); a response that
 * is itself an error (a safety block) is returned with `errorCode`/`errorMessage` set.
 */
export interface Model {
  /** The model name requests are made for, e.g. `gemini-2.5-flash`. */
  readonly name: string;
  /** What the model can do beyond the basic contract; absent means nothing (see {@link ModelCapabilities}). */
  readonly capabilities?: ModelCapabilities | undefined;
  /**
   * Generate a response to `request`. The request is read-only: its contents may be frozen and
   * shared with later calls.
   */
  generate(request: LlmRequest, options: GenerateOptions): AsyncIterable<LlmResponse>;
  /**
   * Open a bidirectional live connection (voice, video, realtime text), for `Runner.runLive`.
   * Optional: a model without it cannot serve live runs (the runner raises a typed error).
   * See {@link LiveConnection} for the contract.
   */
  connectLive?(request: LlmRequest, options: LiveConnectOptions): Promise<LiveConnection>;
}

/**
 * A provider that knows how to build {@link Model}s for some model names. Registered with a
 * `ModelRegistry` so agents can name their model with a string.
 */
export interface ModelProvider {
  /** Provider id, e.g. `gemini`, `anthropic`, `openai`. */
  readonly id: string;
  /** Name patterns this provider serves, shown in "unknown model" errors. */
  readonly patterns: ReadonlyArray<string | RegExp>;
  /** Create (or return a cached) model for `modelName`. Only called for matching names. */
  languageModel(modelName: string): Model;
}
