import { describe, expect, it } from 'vitest';

import { failedAttemptOf, functionNode, retryDelay, START, Workflow } from '../src';
import { outputs, runnerFor, turn, workflowOutput } from './helpers';

describe("retry as Python ADK's RetryConfig", () => {
  it('a policy that names no attempt count retries (5 attempts in all, as Python)', async () => {
    let calls = 0;
    const flaky = functionNode({
      name: 'flaky',
      retry: { initialDelayMs: 1, jitter: 0 },
      run: () => {
        calls++;
        throw new Error(`boom ${calls}`);
      },
    });
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, flaky]] })),
      'go',
    );
    expect(calls).toBe(5);
    expect(outputs(events)[0]?.error?.attempts).toBe(5);
  });

  it('records each failed attempt that is retried, with its number and error (not an error event)', async () => {
    const flaky = functionNode({
      name: 'flaky',
      retry: { maxAttempts: 3, initialDelayMs: 1, jitter: 0 },
      run: (_: unknown, ctx) => {
        if (ctx.attempt < 3) throw new TypeError(`boom ${ctx.attempt}`);
        return 'ok';
      },
    });
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, flaky]] })),
      'go',
    );
    const attempts = events.flatMap((event) => {
      const record = failedAttemptOf(event);
      return record ? [{ record, errorCode: event.errorCode }] : [];
    });
    expect(attempts.map(({ record }) => [record.attempt, record.error.name, record.path])).toEqual([
      [1, 'TypeError', 'flaky@1'],
      [2, 'TypeError', 'flaky@1'],
    ]);
    expect(attempts[1]?.record.error.message).toMatch(/boom 2/);
    expect(attempts.every(({ errorCode }) => errorCode === undefined)).toBe(true);
    expect(workflowOutput(events)).toBe('ok');
    expect(events.some((event) => event.errorCode !== undefined)).toBe(false);
  });

  it('retries only the error names listed (Python exceptions=[...])', async () => {
    let calls = 0;
    const picky = functionNode({
      name: 'picky',
      retry: { errorNames: ['RangeError'], initialDelayMs: 1, jitter: 0 },
      run: () => {
        calls++;
        throw calls === 1 ? new RangeError('transient') : new TypeError('fatal');
      },
    });
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, picky]] })),
      'go',
    );
    expect(calls).toBe(2);
    expect(outputs(events)[0]?.error?.message).toMatch(/fatal/);
  });

  it('the delay grows by the multiplier, is capped by the maximum, then spread by the jitter', () => {
    const exact = { initialDelayMs: 100, backoffMultiplier: 3, maxDelayMs: 500, jitter: 0 };
    expect([1, 2, 3, 4].map((attempt) => retryDelay(exact, attempt))).toEqual([100, 300, 500, 500]);
    // Python's defaults: 1 s, doubling, jitter ±100 %.
    expect(retryDelay({}, 2, () => 0.5)).toBe(2000);
    expect(retryDelay({}, 2, () => 0)).toBe(0);
    expect(retryDelay({}, 2, () => 0.999)).toBeCloseTo(3996, 0);
    expect(retryDelay({ maxDelayMs: 1500 }, 2, () => 0.75)).toBe(2250);
    const half = { initialDelayMs: 1000, jitter: 0.5 };
    expect(retryDelay(half, 1, () => 0)).toBe(500);
    expect(retryDelay(half, 1, () => 0.999)).toBeCloseTo(1499, 0);
  });

  it('the jitter spreads real waits: two retried nodes do not wait the same time', async () => {
    const make = (name: string) =>
      functionNode({
        name,
        retry: { maxAttempts: 2, initialDelayMs: 200, jitter: 1 },
        run: (_: unknown, ctx) => {
          if (ctx.attempt === 1) throw new Error('once');
          return name;
        },
      });
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, [make('a'), make('b'), make('c')]]] })),
      'go',
    );
    const delays = events.flatMap((event) => failedAttemptOf(event)?.retryInMs ?? []);
    expect(delays).toHaveLength(3);
    for (const delay of delays) expect(delay).toBeLessThanOrEqual(400);
    expect(new Set(delays).size).toBeGreaterThan(1);
  });
});
