import type { Model } from '../models';

/** A tool call a scripted backend answers with. */
export interface ConformanceToolCall {
  name: string;
  args: Record<string, unknown>;
}

/**
 * One scripted answer of the backend behind a model under test, in provider-neutral terms. The
 * adapter renders it in its provider's wire format (streamed when the call streams).
 */
export type ConformanceReply =
  /**
   * Answer `text`, streamed in `chunks` (which join to `text`). `finishReason` makes the backend
   * end the answer the way its API reports hitting the output token limit (`length`) or a safety
   * block (`safety`); without it the answer ends normally.
   */
  | { type: 'text'; text: string; chunks: string[]; finishReason?: 'length' | 'safety' }
  /** Call these tools (several = parallel tool calls in one response). */
  | { type: 'toolCalls'; calls: ConformanceToolCall[] }
  /** Fail with this HTTP status and provider error message. */
  | { type: 'error'; status: number; message: string }
  /** Streamed: send `text` as a first delta, then stall. Not streamed: never answer. Until the client aborts. */
  | { type: 'hang'; text: string }
  /**
   * The connection drops: streamed, after `text` was sent as a first delta; not streamed, before
   * any answer.
   */
  | { type: 'cut'; text: string }
  /**
   * A call of tool `name` whose arguments are not valid JSON (`rawArguments`, cut short), sent
   * the way the API delivers such a call; an API that cannot send one reports it instead (Gemini's
   * `MALFORMED_FUNCTION_CALL`).
   */
  | { type: 'malformedToolCall'; name: string; rawArguments: string };

/** What a backend received for one call, decoded from the provider's wire format. */
export interface ConformanceRequestView {
  /** The system instruction as the provider received it. */
  systemInstruction: string | undefined;
  /** Texts of the user turns (not the system instruction), in order. */
  userTexts: string[];
  /** Tool calls of earlier model turns, in order. */
  toolCalls: Array<{ id: string | undefined; name: string; args: Record<string, unknown> }>;
  /** Tool results sent back to the model, in order. */
  toolResults: Array<{ id: string | undefined; name: string | undefined; response: unknown }>;
  /** Names of the declared tools. */
  toolNames: string[];
}

/** A model bound to a scripted backend, made by the adapter for one test. */
export interface ConformanceBackend {
  model: Model;
  /** Every request the backend received so far, decoded. */
  requests(): ConformanceRequestView[];
  close?(): Promise<void> | void;
}

/** How the model under test must be configured for one test. */
export interface ConformanceBackendSettings {
  /**
   * Automatic retries the model may make (its `maxRetries`): 0 in most tests, so that an error
   * reply surfaces at once; more in the retry tests. Keep retry delays short (a few milliseconds)
   * when the backend is a test server.
   */
  retries: number;
}

/** Options of `modelProviderConformance`. */
export interface ModelProviderConformanceOptions {
  /**
   * Starts a backend answering with `script` (one reply per call, in order; a retry is a call)
   * and returns a model bound to it, configured as `settings` says.
   */
  createBackend(
    script: ConformanceReply[],
    settings: ConformanceBackendSettings,
  ): Promise<ConformanceBackend> | ConformanceBackend;
}
