import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { evaluate } from '../src/vitest';
import { weatherAgent } from './weather-agent';

const evalSet = join(import.meta.dirname, '__fixtures__', 'weather.evalset.json');

describe('@adk/eval/vitest', () => {
  it('passes an agent that meets every threshold', async () => {
    expect(await evaluate(weatherAgent(), evalSet)).toPass();
  });

  it('fails with the summary table when a case fails', async () => {
    const outcome = await evaluate(weatherAgent(), evalSet, {
      metrics: [{ metricName: 'response_match_score', threshold: 1.01 }],
    });
    expect(() => expect(outcome).toPass()).toThrow(
      /expected eval set weather_set to pass:[\s\S]*paris_weather\s+response_match_score\s+1\.000\s+1\.01\s+FAILED/,
    );
    expect(outcome).not.toPass();
  });

  it('is the only entry point that imports vitest', async () => {
    const root = join(import.meta.dirname, '..', 'src');
    const files = (await readdir(root, { recursive: true })).filter(
      (f) => f.endsWith('.ts') && !f.startsWith('vitest'),
    );
    for (const file of files) {
      expect(await readFile(join(root, file), 'utf8'), file).not.toMatch(/from 'vitest'/);
    }
  });
});
