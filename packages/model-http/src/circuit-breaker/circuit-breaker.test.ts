import { describe, expect, it } from 'vitest';

import { CircuitOpenError } from '../errors/circuit-open-error';
import { CircuitBreaker, type CircuitState } from './circuit-breaker';

function setup(failureThreshold = 3) {
  let time = 1_000_000;
  const changes: Array<{ key: string; from: CircuitState; to: CircuitState }> = [];
  const breaker = new CircuitBreaker({
    failureThreshold,
    resetTimeoutMs: 10_000,
    now: () => time,
    onStateChange: (change) => changes.push(change),
  });
  const fail = (key = 'm') => breaker.acquire(key, 'test').failure();
  return { breaker, changes, fail, advance: (ms: number) => (time += ms), now: () => time };
}

describe('CircuitBreaker', () => {
  it('opens after N consecutive failures and then fails fast with a typed error', () => {
    const { breaker, fail, now } = setup();
    fail();
    fail();
    expect(breaker.state('m')).toBe('closed');
    fail();
    expect(breaker.state('m')).toBe('open');
    let error: unknown;
    try {
      breaker.acquire('m', 'test');
    } catch (caught) {
      error = caught;
    }
    expect(CircuitOpenError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      model: 'm',
      provider: 'test',
      retryAt: now() + 10_000,
      code: 'CIRCUIT_OPEN',
    });
  });

  it('resets the count on success, so only consecutive failures open it', () => {
    const { breaker, fail } = setup();
    fail();
    fail();
    breaker.acquire('m', 'test').success();
    fail();
    fail();
    expect(breaker.state('m')).toBe('closed');
  });

  it('keeps models isolated', () => {
    const { breaker, fail } = setup(1);
    fail('gemini-2.5-flash');
    expect(breaker.state('gemini-2.5-flash')).toBe('open');
    expect(() => breaker.acquire('gpt-4o', 'test')).not.toThrow();
  });

  it('lets a single probe through when half-open; its success closes the circuit', () => {
    const { breaker, fail, advance, changes } = setup(1);
    fail();
    advance(10_000);
    expect(breaker.state('m')).toBe('half-open');
    const probe = breaker.acquire('m', 'test');
    expect(() => breaker.acquire('m', 'test')).toThrow(/probe call is in flight/);
    probe.success();
    expect(breaker.state('m')).toBe('closed');
    expect(() => breaker.acquire('m', 'test').success()).not.toThrow();
    expect(changes.map((c) => c.to)).toEqual(['open', 'half-open', 'closed']);
  });

  it('reopens for a full period when the probe fails', () => {
    const { breaker, fail, advance } = setup(1);
    fail();
    advance(10_000);
    breaker.acquire('m', 'test').failure();
    expect(breaker.state('m')).toBe('open');
    advance(9_999);
    expect(() => breaker.acquire('m', 'test')).toThrow(CircuitOpenError);
    advance(1);
    expect(() => breaker.acquire('m', 'test')).not.toThrow();
  });

  it('a released probe (aborted call) lets the next caller probe', () => {
    const { breaker, fail, advance } = setup(1);
    fail();
    advance(10_000);
    breaker.acquire('m', 'test').release();
    const next = breaker.acquire('m', 'test');
    next.success();
    expect(breaker.state('m')).toBe('closed');
  });

  it('gives up a probe that never reports after a period, and ignores its late report', () => {
    const { breaker, fail, advance } = setup(1);
    fail();
    advance(10_000);
    const abandoned = breaker.acquire('m', 'test');
    advance(9_999);
    expect(() => breaker.acquire('m', 'test')).toThrow(/probe call is in flight/);
    advance(1);
    const next = breaker.acquire('m', 'test');
    abandoned.failure();
    expect(breaker.state('m')).toBe('half-open');
    next.success();
    expect(breaker.state('m')).toBe('closed');
  });

  it('counts a permit only once', () => {
    const { breaker } = setup(2);
    const permit = breaker.acquire('m', 'test');
    permit.failure();
    permit.failure();
    expect(breaker.state('m')).toBe('closed');
  });
});
