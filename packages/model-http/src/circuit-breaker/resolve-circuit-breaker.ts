import { CircuitBreaker, type CircuitBreakerOptions } from './circuit-breaker';

/**
 * Normalises a provider factory's `circuitBreaker` setting: `false` turns it off, an instance is
 * used as is (share one between providers if you like), options (or `undefined`, for defaults)
 * build a new breaker.
 */
export function resolveCircuitBreaker(
  setting: CircuitBreaker | CircuitBreakerOptions | false | undefined,
): CircuitBreaker | undefined {
  if (setting === false) return undefined;
  if (setting instanceof CircuitBreaker) return setting;
  return new CircuitBreaker(setting ?? {});
}
