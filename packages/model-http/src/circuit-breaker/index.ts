export {
  CircuitBreaker,
  type CircuitBreakerOptions,
  type CircuitPermit,
  type CircuitState,
} from './circuit-breaker';
export { resolveCircuitBreaker } from './resolve-circuit-breaker';
