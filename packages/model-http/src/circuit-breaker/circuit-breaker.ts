import { CircuitOpenError } from '../errors/circuit-open-error';

/** Settings of a {@link CircuitBreaker}. */
export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. Default 5. */
  failureThreshold?: number;
  /** How long the circuit stays open before one probe call is let through. Default 30 000 ms. */
  resetTimeoutMs?: number;
  /** Clock, in epoch milliseconds. Default `Date.now`. */
  now?: () => number;
  /** Called whenever a circuit changes state (for logging or metrics). */
  onStateChange?: (change: { key: string; from: CircuitState; to: CircuitState }) => void;
}

/** `closed`: calls flow. `open`: calls fail fast. `half-open`: one probe call is allowed. */
export type CircuitState = 'closed' | 'open' | 'half-open';

/**
 * What a caller must report back after {@link CircuitBreaker.acquire}: exactly one of
 * `success()`, `failure()` or `release()` (the call ended without saying anything about the
 * backend's health, e.g. it was aborted by the user).
 */
export interface CircuitPermit {
  success(): void;
  failure(): void;
  release(): void;
}

interface Circuit {
  state: CircuitState;
  failures: number;
  openedAt: number;
  probeInFlight: boolean;
  /** When the current probe started; a probe that never reports is given up after a period. */
  probeStartedAt: number;
  /** Incremented per probe, so that a given-up probe reporting late is ignored. */
  probeGeneration: number;
}

/**
 * Per-key circuit breaker (one key per model, so a Gemini outage never blocks OpenAI calls).
 *
 * After `failureThreshold` consecutive failures the circuit opens and every call fails at once with
 * a {@link CircuitOpenError}. After `resetTimeoutMs` it turns half-open: a single probe call goes
 * through while the others keep failing fast. The probe's success closes the circuit; its failure
 * opens it for another period. A probe that never reports (its caller abandoned the call) is given
 * up after `resetTimeoutMs`, and the next caller probes instead.
 *
 * Only failures that say the backend is unhealthy count: retryable HTTP errors (429, 5xx) after
 * retries, connection errors and timeouts. A 4xx answer proves the backend is up and counts as a
 * success; a user abort counts as nothing.
 *
 * @example
 * ```ts
 * const breaker = new CircuitBreaker({ failureThreshold: 3, resetTimeoutMs: 10_000 });
 * const gemini = createGemini({ circuitBreaker: breaker });
 * ```
 */
export class CircuitBreaker {
  private readonly circuits = new Map<string, Circuit>();
  private readonly failureThreshold: number;
  private readonly resetTimeoutMs: number;
  private readonly now: () => number;
  private readonly onStateChange: CircuitBreakerOptions['onStateChange'];

  constructor(options: CircuitBreakerOptions = {}) {
    this.failureThreshold = Math.max(1, options.failureThreshold ?? 5);
    this.resetTimeoutMs = Math.max(0, options.resetTimeoutMs ?? 30_000);
    this.now = options.now ?? Date.now;
    this.onStateChange = options.onStateChange;
  }

  /** Current state of the circuit for `key` (an open circuit past its period reads `half-open`). */
  state(key: string): CircuitState {
    const circuit = this.circuits.get(key);
    if (!circuit) return 'closed';
    if (circuit.state === 'open' && this.now() >= circuit.openedAt + this.resetTimeoutMs) {
      return 'half-open';
    }
    return circuit.state;
  }

  /**
   * Asks to make a call for `key`. Throws {@link CircuitOpenError} when the circuit is open (or
   * half-open with its probe in flight); otherwise returns the permit to report the outcome on.
   */
  acquire(key: string, provider: string): CircuitPermit {
    const circuit = this.circuits.get(key);
    if (!circuit || circuit.state === 'closed') return this.permit(key, undefined);
    const retryAt = circuit.openedAt + this.resetTimeoutMs;
    if (circuit.state === 'open') {
      if (this.now() < retryAt) {
        throw new CircuitOpenError({ provider, model: key, retryAt, probing: false });
      }
      this.transition(key, circuit, 'half-open');
    }
    const now = this.now();
    if (circuit.probeInFlight && now < circuit.probeStartedAt + this.resetTimeoutMs) {
      throw new CircuitOpenError({ provider, model: key, retryAt, probing: true });
    }
    circuit.probeInFlight = true;
    circuit.probeStartedAt = now;
    circuit.probeGeneration++;
    return this.permit(key, circuit.probeGeneration);
  }

  /** Forgets every circuit (all close). */
  reset(): void {
    this.circuits.clear();
  }

  private permit(key: string, probe: number | undefined): CircuitPermit {
    let settled = false;
    const settle = (outcome: 'success' | 'failure' | 'release') => {
      if (settled) return;
      settled = true;
      this.record(key, probe, outcome);
    };
    return {
      success: () => settle('success'),
      failure: () => settle('failure'),
      release: () => settle('release'),
    };
  }

  private record(
    key: string,
    probe: number | undefined,
    outcome: 'success' | 'failure' | 'release',
  ): void {
    let circuit = this.circuits.get(key);
    if (probe !== undefined && circuit) {
      if (probe !== circuit.probeGeneration) return; // a probe given up earlier
      circuit.probeInFlight = false;
    }
    if (outcome === 'release') return;
    if (outcome === 'success') {
      if (circuit && circuit.state !== 'closed') this.transition(key, circuit, 'closed');
      if (circuit) circuit.failures = 0;
      return;
    }
    if (!circuit) {
      circuit = {
        state: 'closed',
        failures: 0,
        openedAt: 0,
        probeInFlight: false,
        probeStartedAt: 0,
        probeGeneration: 0,
      };
      this.circuits.set(key, circuit);
    }
    circuit.failures++;
    if (circuit.state === 'half-open' || circuit.failures >= this.failureThreshold) {
      circuit.openedAt = this.now();
      this.transition(key, circuit, 'open');
    }
  }

  private transition(key: string, circuit: Circuit, to: CircuitState): void {
    const from = circuit.state;
    if (from === to) return;
    circuit.state = to;
    this.onStateChange?.({ key, from, to });
  }
}
