import type { Content } from '../content';
import type {
  LiveGoAway,
  LiveSessionResumptionUpdate,
  Transcription,
} from './live-response-fields';
import type { CacheMetadata } from './context-cache';

/** Why a model stopped. Gemini's names; other providers map onto them. */
export type FinishReason =
  | 'STOP'
  | 'MAX_TOKENS'
  | 'SAFETY'
  | 'RECITATION'
  | 'BLOCKLIST'
  | 'PROHIBITED_CONTENT'
  | 'MALFORMED_FUNCTION_CALL'
  | 'OTHER'
  | (string & {});

/** Token accounting, with the Gemini / ADK field names. */
export interface UsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  totalTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
}

/** A web page (or other source) an answer was grounded on. */
export interface GroundingChunk {
  web?: { uri?: string; title?: string; domain?: string };
  [key: string]: unknown;
}

/** The part of the answer text a grounding source supports. */
export interface GroundingSupport {
  segment?: { startIndex?: number; endIndex?: number; text?: string; partIndex?: number };
  /** Indexes into `groundingChunks`. */
  groundingChunkIndices?: number[];
  confidenceScores?: number[];
  [key: string]: unknown;
}

/**
 * How an answer was grounded (web search, URL context), in the Gemini / ADK shape: Gemini sends
 * it as is; Anthropic web search results and OpenAI search citations are mapped onto it. Unknown
 * members are kept.
 */
export interface GroundingMetadata {
  /** The search queries the model ran. */
  webSearchQueries?: string[];
  /** The sources, in the order the supports refer to them. */
  groundingChunks?: GroundingChunk[];
  groundingSupports?: GroundingSupport[];
  /** Gemini's Google Search suggestions, HTML the terms of service ask to display. */
  searchEntryPoint?: { renderedContent?: string; sdkBlob?: string };
  [key: string]: unknown;
}

/** One source cited by the answer. Indexes are character offsets in the answer text. */
export interface Citation {
  startIndex?: number;
  endIndex?: number;
  uri?: string;
  title?: string;
  license?: string;
  /** The cited passage, when the provider gives it (Anthropic `cited_text`). */
  citedText?: string;
  [key: string]: unknown;
}

/** The sources an answer cites (Gemini `citationMetadata`, Anthropic / OpenAI citations). */
export interface CitationMetadata {
  citations?: Citation[];
  [key: string]: unknown;
}

/**
 * One response (or one streamed chunk) from a model.
 *
 * Streaming contract: with `stream: true` a model yields zero or more chunks with
 * `partial: true` whose `content` holds only the new delta, then exactly one final response
 * (`partial` unset or false) holding the whole aggregated content, the usage and the finish reason.
 * With `stream: false` it yields exactly one final response.
 */
export interface LlmResponse {
  content?: Content;
  /** True for a streamed delta chunk; such chunks are shown to callers but never stored. */
  partial?: boolean;
  /** True when the model finished its turn. */
  turnComplete?: boolean;
  finishReason?: FinishReason;
  usageMetadata?: UsageMetadata;
  /** Set when the response is an error (for example a safety block). */
  errorCode?: string;
  errorMessage?: string;
  /** True when generation was interrupted. */
  interrupted?: boolean;
  /** The exact model version that answered, when the provider reports it. */
  modelVersion?: string;
  /** How the answer was grounded (provider-side web search, URL context). */
  groundingMetadata?: GroundingMetadata;
  /** The sources the answer cites. */
  citationMetadata?: CitationMetadata;
  customMetadata?: Record<string, unknown>;
  /** Live runs: a transcription of the user's audio (stored in the session as text). */
  inputTranscription?: Transcription;
  /** Live runs: a transcription of the model's audio (stored in the session as text). */
  outputTranscription?: Transcription;
  /** Live runs: a new session resumption handle (the runner keeps the latest in the session). */
  liveSessionResumptionUpdate?: LiveSessionResumptionUpdate;
  /** Live runs: the provider will close the connection soon. */
  goAway?: LiveGoAway;
  /**
   * The provider's explicit context cache for this call (see `ContextCacheConfig`), stored on the
   * event so the agent's next call finds it. Set by providers that cache.
   */
  cacheMetadata?: CacheMetadata;
}
