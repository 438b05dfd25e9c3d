import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { Session } from '@adk/core';

import { evaluate } from '../src';
import { weatherAgent } from './weather-agent';

const evalSetFile = join(import.meta.dirname, '__fixtures__', 'weather.evalset.json');

/** The results as JSON, times left out (they come from the clock, not the cassette). */
function withoutTimes(value: unknown): string {
  return JSON.stringify(value, (key, v: unknown) =>
    /timestamp|lastUpdateTime/i.test(key) ? undefined : v,
  );
}

describe('replayed results are identical run to run', () => {
  it('derives session, invocation and event ids from the eval, not at random', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'adk-eval-ids-'));
    const cassette = join(dir, 'weather.cassette.jsonl');
    await evaluate(weatherAgent(), evalSetFile, { cassette, cassetteMode: 'record' });

    const replay = () =>
      evaluate(weatherAgent(), evalSetFile, { cassette, cassetteMode: 'replay', numRuns: 2 });
    const first = await replay();
    const second = await replay();
    expect(first.passed).toBe(true);
    expect(withoutTimes(second.evalCaseResults)).toBe(withoutTimes(first.evalCaseResults));

    const ids = first.evalCaseResults.map((r) => r.sessionId);
    expect(ids.every((id) => id.startsWith('___eval___session___'))).toBe(true);
    // Each case and run has its own session, events and calls.
    expect(new Set(ids).size).toBe(ids.length);
    const paris = first.evalCaseResults.find((r) => r.evalId === 'paris_weather')!;
    const events = (paris.sessionDetails as Session).events;
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    expect(events.every((e) => e.invocationId.startsWith('e-'))).toBe(true);

    // Random ids (opted out): the same replay differs run to run.
    const random = () =>
      evaluate(weatherAgent(), evalSetFile, {
        cassette,
        cassetteMode: 'replay',
        deterministicIds: false,
      });
    expect(withoutTimes((await random()).evalCaseResults)).not.toBe(
      withoutTimes((await random()).evalCaseResults),
    );

    // Without a cassette, ids stay random.
    const live = await evaluate(weatherAgent(), evalSetFile);
    const again = await evaluate(weatherAgent(), evalSetFile);
    expect(live.evalCaseResults[0]!.sessionId).not.toBe(again.evalCaseResults[0]!.sessionId);
  });
});
