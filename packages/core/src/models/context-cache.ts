import { InvalidArgumentError } from '../errors/invalid-argument-error';

/**
 * Explicit context caching for every LLM agent of an app (Python ADK's `ContextCacheConfig`):
 * providers that support it (Gemini's `cachedContents`) store the stable start of a request
 * (system instruction, tools, leading history) once and send only what follows. Set it on an
 * `App`; absent, nothing is cached explicitly.
 */
export interface ContextCacheConfig {
  /** Invocations that may reuse one cache before it is created again (1 to 100). Default 10. */
  cacheIntervals: number;
  /** Lifetime of a cache on the provider, in seconds (more than 0). Default 1800. */
  ttlSeconds: number;
  /**
   * No cache is created while the previous request of the agent used fewer prompt tokens than
   * this (caches are billed for storage; providers also have a minimum of their own). Default 0.
   */
  minTokens: number;
}

/**
 * What a model call knows about its agent's cache, stored on the event of the response
 * (`event.cacheMetadata`) so the next call (in any process) finds it. Either an active cache
 * (`cacheName` set) or only the fingerprint of a request's start, which lets the next call check
 * that the start is unchanged before creating a cache for it. Member names and units follow Python
 * ADK's `CacheMetadata` (times in seconds since the epoch).
 */
export interface CacheMetadata {
  /** The provider's name of the cache (`cachedContents/…`); absent for a fingerprint only. */
  cacheName?: string;
  /** When the cache expires, in seconds since the epoch. */
  expireTime?: number;
  /** Hash of the cached start: system instruction, tools, tool config and the first contents. */
  fingerprint: string;
  /** Invocations that used the cache so far. */
  invocationsUsed?: number;
  /** How many leading contents of a request the cache (or fingerprint) covers. */
  contentsCount: number;
  /** When the cache was created, in seconds since the epoch. */
  createdAt?: number;
}

/** Default of every {@link ContextCacheConfig} member. */
export const DEFAULT_CONTEXT_CACHE_CONFIG: Readonly<ContextCacheConfig> = Object.freeze({
  cacheIntervals: 10,
  ttlSeconds: 1800,
  minTokens: 0,
});

/**
 * A complete {@link ContextCacheConfig}: defaults for what `init` leaves out, each value checked.
 *
 * @example
 * ```ts
 * const app = new App({ name: 'docs', agent, contextCacheConfig: { ttlSeconds: 600, minTokens: 4096 } });
 * ```
 *
 * @throws InvalidArgumentError naming the member out of range.
 */
export function createContextCacheConfig(
  init: Partial<ContextCacheConfig> = {},
): ContextCacheConfig {
  const config = { ...DEFAULT_CONTEXT_CACHE_CONFIG, ...definedMembers(init) };
  const check = (ok: boolean, member: keyof ContextCacheConfig, rule: string) => {
    if (!ok)
      throw new InvalidArgumentError({
        message: `contextCacheConfig.${member} must be ${rule} (got ${String(config[member])}).`,
        argument: `contextCacheConfig.${member}`,
      });
  };
  check(
    Number.isInteger(config.cacheIntervals) &&
      config.cacheIntervals >= 1 &&
      config.cacheIntervals <= 100,
    'cacheIntervals',
    'an integer from 1 to 100',
  );
  check(
    Number.isFinite(config.ttlSeconds) && config.ttlSeconds > 0,
    'ttlSeconds',
    'a number of seconds above 0',
  );
  check(
    Number.isFinite(config.minTokens) && config.minTokens >= 0,
    'minTokens',
    'a number of tokens, 0 or more',
  );
  return config;
}

function definedMembers(init: Partial<ContextCacheConfig>): Partial<ContextCacheConfig> {
  const out: Partial<ContextCacheConfig> = {};
  for (const key of ['cacheIntervals', 'ttlSeconds', 'minTokens'] as const) {
    if (init[key] !== undefined) out[key] = init[key];
  }
  return out;
}
