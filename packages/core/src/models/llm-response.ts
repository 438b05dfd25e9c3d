import type { Content } from '../content';
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
  customMetadata?: Record<string, unknown>;
  /**
   * The provider's explicit context cache for this call (see `ContextCacheConfig`), stored on the
   * event so the agent's next call finds it. Set by providers that cache.
   */
  cacheMetadata?: CacheMetadata;
}
