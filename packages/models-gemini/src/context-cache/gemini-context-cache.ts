import type { CacheMetadata, ContextCacheConfig, LlmRequest, LlmResponse } from '@adk/core';
import type { HttpClient } from '@adk/model-http';

import type { GeminiRequest } from '../convert/gemini-wire';
import type { GeminiEndpoint } from '../gemini-endpoint';
import { cacheFingerprint } from './cache-fingerprint';
import { createCachedContent, deleteCachedContent } from './cached-contents-api';

/** Warning `code` when a cache could not be created (the call then goes out uncached). */
export const CONTEXT_CACHE_WARNING = 'ADK_CONTEXT_CACHE_FAILED';

/** What one model call needs to manage its agent's cache. */
export interface ContextCacheCall {
  http: HttpClient;
  endpoint: GeminiEndpoint;
  /** The model's name (errors and circuit breaker) and its API id (the cache's model). */
  model: string;
  apiModelId: string;
  signal?: AbortSignal | undefined;
  /** Clock in milliseconds; default `Date.now`. */
  now?: () => number;
}

/** The request body to send, and the cache metadata to store on the response's event. */
export interface CachedRequest {
  body: GeminiRequest;
  cacheMetadata: CacheMetadata;
}

/**
 * Gemini explicit context caching for one call (Python ADK's `GeminiContextCacheManager`, with the
 * same metadata and lifecycle):
 *
 * - the agent's previous call left a **fingerprint** of its request's start (system instruction,
 *   tools, tool config, its contents): when this request starts the same way, a cache of that start
 *   is created (`cachedContents.create`, `ttl` from `ttlSeconds`) provided the previous call used
 *   at least `minTokens` prompt tokens;
 * - an **active cache** is reused while it has not expired, has served at most `cacheIntervals`
 *   invocations and the request still starts with what it holds; otherwise it is deleted and the
 *   step above decides whether to create a new one;
 * - a request using a cache names it in `cachedContent` and carries only what follows the cached
 *   contents, without system instruction, tools or tool config (the API refuses them next to a
 *   cache); the response's `usageMetadata.cachedContentTokenCount` shows the hit;
 * - anything else gets a fingerprint of the whole request, for the next call.
 *
 * A failed creation never fails the call: it goes out uncached and an `AdkWarning`
 * ({@link CONTEXT_CACHE_WARNING}) says why.
 */
export async function applyContextCache(
  request: LlmRequest,
  body: GeminiRequest,
  call: ContextCacheCall,
): Promise<CachedRequest> {
  const config = request.cacheConfig as ContextCacheConfig;
  const now = (call.now ?? Date.now)() / 1000;
  const total = body.contents.length;
  const wholeRequest = (): CachedRequest => ({
    body,
    cacheMetadata: { fingerprint: cacheFingerprint(body, total), contentsCount: total },
  });
  const previous = request.cacheMetadata;
  // A cache named by hand (`providerOptions.gemini.cachedContent`) is left as it is.
  if (body.cachedContent !== undefined) return wholeRequest();
  // A cache must leave something to send: at least one content after it.
  if (!previous || previous.contentsCount <= 0 || previous.contentsCount >= total)
    return wholeRequest();
  const count = previous.contentsCount;
  const sameStart = cacheFingerprint(body, count) === previous.fingerprint;
  if (previous.cacheName !== undefined) {
    const usable =
      sameStart &&
      previous.expireTime !== undefined &&
      now < previous.expireTime &&
      (previous.invocationsUsed ?? 0) <= config.cacheIntervals;
    if (usable) return { body: useCache(body, previous.cacheName, count), cacheMetadata: previous };
    await deleteQuietly(call, previous.cacheName);
  }
  if (!sameStart) return wholeRequest();
  const tokens = request.cacheableContentsTokenCount;
  if (tokens === undefined || tokens < config.minTokens) return wholeRequest();
  const created = await createQuietly(call, body, count, config.ttlSeconds);
  if (!created) return wholeRequest();
  const createdAt = (call.now ?? Date.now)() / 1000;
  return {
    body: useCache(body, created, count),
    cacheMetadata: {
      cacheName: created,
      expireTime: createdAt + config.ttlSeconds,
      fingerprint: previous.fingerprint,
      invocationsUsed: 1,
      contentsCount: count,
      createdAt,
    },
  };
}

/**
 * The final responses of `responses` with `cacheMetadata` (stored on their events, where the
 * agent's next call finds it); partial chunks pass as they are.
 */
export async function* withCacheMetadata(
  responses: AsyncIterable<LlmResponse>,
  cacheMetadata: CacheMetadata,
): AsyncGenerator<LlmResponse, void> {
  for await (const response of responses)
    yield response.partial ? response : { ...response, cacheMetadata };
}

/** `body` sent through the cache `name` holding its first `count` contents. */
function useCache(body: GeminiRequest, name: string, count: number): GeminiRequest {
  const { systemInstruction: _system, tools: _tools, toolConfig: _toolConfig, ...rest } = body;
  return { ...rest, contents: body.contents.slice(count), cachedContent: name };
}

async function createQuietly(
  call: ContextCacheCall,
  body: GeminiRequest,
  count: number,
  ttlSeconds: number,
): Promise<string | undefined> {
  try {
    const created = await createCachedContent(call.http, call.endpoint, {
      model: call.model,
      apiModelId: call.apiModelId,
      prefix: {
        contents: body.contents.slice(0, count),
        systemInstruction: body.systemInstruction,
        tools: body.tools,
        toolConfig: body.toolConfig,
      },
      ttlSeconds,
      displayName: `adk-cache-${Math.floor(Date.now() / 1000)}-${count}contents`,
      signal: call.signal,
    });
    return created.name;
  } catch (error) {
    if (call.signal?.aborted) throw error;
    process.emitWarning(
      `Gemini context cache not created for ${call.model}; the call goes out uncached: ${
        error instanceof Error ? error.message : String(error)
      }`,
      { type: 'AdkWarning', code: CONTEXT_CACHE_WARNING },
    );
    return undefined;
  }
}

/** Delete a cache no longer used; one that already expired (404) or any failure is let go. */
async function deleteQuietly(call: ContextCacheCall, name: string): Promise<void> {
  try {
    await deleteCachedContent(call.http, call.endpoint, call.model, name);
  } catch {
    // The API deletes expired caches itself; a leftover expires at its TTL.
  }
}
