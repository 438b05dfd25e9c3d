import type { Event } from '../events';
import { withoutRewoundEvents } from '../history/rewound-events';
import type { InvocationContext } from '../invocation/invocation-context';
import type { CacheMetadata, LlmRequest } from '../models';

/**
 * `request` with the app's context caching settings and what the session's events say about the
 * agent's cache (Python ADK's context cache request processor): the latest `cacheMetadata` the
 * agent's responses stored, its `invocationsUsed` counted up once when this is a later invocation
 * than the one that stored it, and the prompt tokens of the agent's latest call. Rewound events
 * are not read. `request` itself when caching is off.
 */
export function withContextCache(
  request: LlmRequest,
  ctx: InvocationContext,
  agentName: string,
): LlmRequest {
  const cacheConfig = ctx.contextCacheConfig;
  if (!cacheConfig) return request;
  let cacheMetadata: CacheMetadata | undefined;
  let promptTokens: number | undefined;
  const events = withoutRewoundEvents(ctx.session.events);
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as Event;
    if (event.author !== agentName) continue;
    if (cacheMetadata === undefined && event.cacheMetadata !== undefined) {
      const stored = event.cacheMetadata;
      const laterInvocation =
        event.invocationId !== ctx.invocationId && stored.cacheName !== undefined;
      cacheMetadata = laterInvocation
        ? { ...stored, invocationsUsed: (stored.invocationsUsed ?? 0) + 1 }
        : { ...stored };
    }
    if (promptTokens === undefined && event.usageMetadata?.promptTokenCount !== undefined)
      promptTokens = event.usageMetadata.promptTokenCount;
    if (cacheMetadata !== undefined && promptTokens !== undefined) break;
  }
  const cached: LlmRequest = { ...request, cacheConfig };
  if (cacheMetadata !== undefined) cached.cacheMetadata = cacheMetadata;
  if (promptTokens !== undefined) cached.cacheableContentsTokenCount = promptTokens;
  return cached;
}
