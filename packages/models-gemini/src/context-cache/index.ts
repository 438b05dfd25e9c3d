export {
  applyContextCache,
  CONTEXT_CACHE_WARNING,
  withCacheMetadata,
  type CachedRequest,
  type ContextCacheCall,
} from './gemini-context-cache';
export { cacheFingerprint } from './cache-fingerprint';
export type { GeminiCachedContent } from './cached-contents-api';
