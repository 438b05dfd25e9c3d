/** A tool call the fake model makes. */
export interface FakeToolCall {
  /** Call id; the server invents a provider-looking one when absent (Gemini sends none by default). */
  id?: string;
  name: string;
  args: Record<string, unknown>;
  /**
   * The arguments' JSON text, sent as is instead of `args` (say, cut short: `{"city": "Par`):
   * OpenAI's `arguments`, Anthropic's `input` (streamed as `partial_json`). Gemini, which sends
   * arguments as objects, answers a reply holding such a call with `MALFORMED_FUNCTION_CALL`.
   */
  rawArgs?: string;
}

/** An HTTP error the fake server answers with, rendered in the provider's own error JSON shape. */
export interface FakeError {
  status: number;
  message?: string;
  /** Provider error type / status string; a realistic default is derived from `status`. */
  type?: string;
  /** `Retry-After` header value (seconds or an HTTP date). */
  retryAfter?: string;
  headers?: Record<string, string>;
}

/**
 * Faults injected into a streamed answer. Event indexes count SSE events from 0. The two `hang*`
 * faults make a non-streamed request get no answer at all.
 */
export interface FakeStreamFaults {
  /** Destroy the socket after this many events (a stream cut mid-way). */
  cutAfterEvents?: number;
  /** Insert an unparseable `data:` event before event number `malformedAt`. */
  malformedAt?: number;
  /** Write the SSE bytes in pieces of this many bytes (chunk boundaries anywhere). */
  byteChunkSize?: number;
  /** Stop writing after this many events and keep the connection open (for abort tests). */
  hangAfterEvents?: number;
  /** Stop writing after this many text-delta events and keep the connection open. */
  hangAfterDeltas?: number;
  /**
   * Destroy the socket after this many text-delta events; a non-streamed call gets its socket
   * destroyed before any answer.
   */
  cutAfterDeltas?: number;
  /** End the HTTP response cleanly right after this many events, without the final event(s). */
  endAfterEvents?: number;
  /** Anthropic: send an `error` event (e.g. `overloaded_error`) after this many events. */
  errorEventAfter?: { events: number; type: string; message: string };
}

/** A provider-side web search the fake model ran before answering. */
export interface FakeWebSearch {
  /** The queries run. */
  queries: string[];
  /** The pages found; the answer cites each one (the whole answer text). */
  sources: Array<{ url: string; title: string }>;
}

/** Provider-side code execution the fake model ran before answering. */
export interface FakeCodeExecution {
  code: string;
  output: string;
  /** Default true. */
  ok?: boolean;
}

/** Token counts of a fake answer. */
export interface FakeUsage {
  inputTokens: number;
  outputTokens: number;
  thoughtsTokens?: number;
  cachedTokens?: number;
}

/**
 * One scripted answer of a fake provider server, in provider-neutral terms; each server renders it
 * in its own wire format, streamed or not depending on the request.
 */
export interface FakeReply {
  /** Answer text. */
  text?: string;
  /** How to split `text` across stream chunks; default: about two words per chunk. */
  textChunks?: string[];
  /**
   * A structured-output answer (for agents with `outputSchema`): sent as JSON answer text, or, when
   * the request forces one tool (Anthropic's structured output), as that tool's input.
   */
  json?: Record<string, unknown>;
  /** Reasoning text (Gemini thought part, Anthropic thinking block, OpenAI-compatible reasoning_content). */
  thinking?: string;
  /** Signature of the thinking (Gemini thoughtSignature, Anthropic signature). */
  thinkingSignature?: string;
  /**
   * Anthropic: send the thinking as a `redacted_thinking` block whose encrypted `data` is this
   * (instead of a `thinking` block).
   */
  redactedThinking?: string;
  /**
   * Provider-side web search (Gemini Google Search grounding: `groundingMetadata`; Anthropic
   * `server_tool_use` + `web_search_tool_result` blocks and text `citations`; OpenAI search
   * models: `url_citation` annotations).
   */
  webSearch?: FakeWebSearch;
  /**
   * Provider-side code execution (Gemini `executableCode` / `codeExecutionResult` parts;
   * Anthropic `server_tool_use` + `code_execution_tool_result` blocks). OpenAI has none.
   */
  codeExecution?: FakeCodeExecution;
  /**
   * Tool calls (several = parallel tool calls in one response). Streamed, OpenAI and Anthropic
   * split each call's JSON arguments; Gemini sends whole calls, or, when the request sets
   * `streamFunctionCallArguments`, each call's arguments as `partialArgs` pieces.
   */
  toolCalls?: FakeToolCall[];
  /**
   * Stream a tool call's JSON arguments (Gemini: each string argument) in pieces of this many
   * characters. Default 7.
   */
  argsChunkSize?: number;
  /**
   * OpenAI-compatible, streamed: send the argument fragments of parallel tool calls round-robin
   * (each tagged with its call's `index`, as some compatible servers do) instead of one call after
   * the other.
   */
  interleaveToolCalls?: boolean;
  usage?: FakeUsage;
  /** Why the model stopped; default `stop`, or `tool_calls` when there are tool calls. */
  finishReason?: 'stop' | 'length' | 'tool_calls' | 'safety';
  /** Gemini only: block the prompt (`promptFeedback.blockReason`, e.g. `SAFETY`). */
  promptBlockReason?: string;
  /** Answer with this HTTP error instead. */
  error?: FakeError;
  /** Stream faults. */
  faults?: FakeStreamFaults;
  /** Send exactly this response (fixtures); `body` is written as is. */
  raw?: { status?: number; headers?: Record<string, string>; body: string };
}

/** A request the fake server received. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (undefined when the body was not JSON). */
  body: unknown;
  /** Whether the client asked for a streamed answer. */
  stream: boolean;
  /** The model named by the request (path or body). */
  model: string | undefined;
}

/** A list of replies consumed in order, or a function choosing the reply for each request. */
export type FakeScript = FakeReply[] | ((request: RecordedRequest, index: number) => FakeReply);

/** Options of `startFakeGemini`, `startFakeAnthropic` and `startFakeOpenAI`. */
export interface FakeServerOptions {
  script?: FakeScript;
  /** Port to listen on; default 0 (a random free port). Always bound to 127.0.0.1. */
  port?: number;
  /**
   * The vector of one text on the embedding endpoints. Default: `conceptVector` of
   * `@adk/memory/testing` (deterministic; related phrases close).
   */
  embed?: (text: string, dimensions: number) => number[];
  /** Vector length when an embedding request names none. Default 256. */
  embeddingDimensions?: number;
  /** Errors the next embedding requests get, one each, in order (then vectors again). */
  embeddingFaults?: FakeError[];
}

/** A running fake provider server. */
export interface FakeProviderServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The URL to pass as the provider's `baseURL` (e.g. `<url>/v1beta` for Gemini). */
  baseURL: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Appends replies to a list script. */
  push(...replies: FakeReply[]): void;
  /** Replaces the script (and forgets unconsumed replies). */
  setScript(script: FakeScript): void;
  /** Queues errors for the next embedding requests, one each (see `embeddingFaults`). */
  failEmbeddings(...errors: FakeError[]): void;
  /** Number of scripted replies not yet used (list scripts only). */
  readonly pending: number;
  /** Closes the server and every open connection. */
  close(): Promise<void>;
}
