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
  /** Answer `text`, streamed in `chunks` (which join to `text`). */
  | { type: 'text'; text: string; chunks: string[] }
  /** Call these tools (several = parallel tool calls in one response). */
  | { type: 'toolCalls'; calls: ConformanceToolCall[] }
  /** Fail with this HTTP status and provider error message. */
  | { type: 'error'; status: number; message: string }
  /** Streamed: send `text` as a first delta, then stall. Not streamed: never answer. Until the client aborts. */
  | { type: 'hang'; text: string };

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

/** Options of `modelProviderConformance`. */
export interface ModelProviderConformanceOptions {
  /**
   * Starts a backend answering with `script` (one reply per call, in order) and returns a model
   * bound to it. Disable automatic retries, so that an error reply surfaces at once.
   */
  createBackend(script: ConformanceReply[]): Promise<ConformanceBackend> | ConformanceBackend;
}
