import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { AdkError } from '@adk/core';
import { FakeModel } from '@adk/core/testing';

import { evaluate, formatOutcomeTable, loadEvalSetFile } from '../src';
import { weatherAgent } from './weather-agent';

const evalSetFile = join(import.meta.dirname, '__fixtures__', 'weather.evalset.json');

/** A provider answering 401: what a missing or wrong API key gives. */
class ProviderAuthError extends AdkError {
  constructor() {
    super('ProviderAuthError', 'MODEL_HTTP_ERROR', {
      message: 'HTTP 401 from the provider: API key not valid.',
    });
  }
}

describe('evaluation tells errors from bad answers', () => {
  it('reports a failed model call as the case error, its metrics not evaluated (not a 0)', async () => {
    const failing = new FakeModel({
      name: 'fake-weather',
      responses: () => {
        throw new ProviderAuthError();
      },
    });
    const outcome = await evaluate(weatherAgent(failing), evalSetFile);
    expect(outcome.passed).toBe(false);
    for (const result of outcome.evalCaseResults) {
      expect(result.finalEvalStatus).toBe(2);
      expect(result.error).toContain('MODEL_HTTP_ERROR');
      expect(result.error).toContain('API key not valid');
      expect(result.overallEvalMetricResults.map((m) => [m.score, m.evalStatus])).toEqual([
        [undefined, 3],
        [undefined, 3],
      ]);
    }
    for (const summary of outcome.cases) {
      expect(summary.evalStatus).toBe(2);
      expect(summary.errors).toHaveLength(1);
      expect(summary.metrics.every((m) => m.score === undefined)).toBe(true);
    }
    const table = formatOutcomeTable(outcome);
    expect(table).toMatch(/paris_weather\s+-\s+-\s+-\s+ERROR/);
    expect(table).toContain('API key not valid');
    expect(table).not.toContain('0.000');
    expect(table).toContain('0 passed, 0 failed, 0 not evaluated, 2 with errors');
  });

  it('reports a replay miss as the case error, naming the cassette', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'adk-eval-miss-'));
    const cassette = join(dir, 'weather.cassette.jsonl');
    await evaluate(weatherAgent(), evalSetFile, { cassette, concurrency: 1 });
    // The eval set changes: one question the cassette never saw.
    const changed = await loadEvalSetFile(evalSetFile);
    changed.evalCases[0]!.conversation![0]!.userContent = {
      role: 'user',
      parts: [{ text: 'What is the weather in Lima?' }],
    };
    const outcome = await evaluate(weatherAgent(), changed, { cassette, cassetteMode: 'replay' });
    const paris = outcome.evalCaseResults.find((r) => r.evalId === 'paris_weather')!;
    expect(paris.error).toContain('REPLAY_MISS');
    expect(paris.error).toContain(cassette);
    expect(paris.overallEvalMetricResults.every((m) => m.score === undefined)).toBe(true);
    // The unchanged case still replays and passes.
    expect(outcome.cases.find((c) => c.evalId === 'two_cities')).toMatchObject({
      evalStatus: 1,
      errors: [],
    });
  });

  it('scores a bad answer as a bad answer, with no error', async () => {
    const wrong = new FakeModel({ name: 'fake-weather', responses: () => 'I do not know.' });
    const outcome = await evaluate(weatherAgent(wrong), evalSetFile);
    const paris = outcome.cases.find((c) => c.evalId === 'paris_weather')!;
    expect(paris.errors).toEqual([]);
    expect(paris.evalStatus).toBe(2);
    expect(paris.metrics.find((m) => m.metricName === 'tool_trajectory_avg_score')!.score).toBe(0);
  });
});
