import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  EvalFileError,
  formatEvalSetResultFile,
  loadEvalConfig,
  loadEvalSetFile,
  metricsFromConfig,
  parseEvalSet,
  parseEvalSetResult,
  serializeEvalSet,
  writeEvalSetFile,
  type EvalSetResult,
} from '../src';

const fixture = (name: string) => join(import.meta.dirname, '__fixtures__', name);

describe('eval set files', () => {
  it('reads a snake_case file with Python nulls and the same set in camelCase identically', async () => {
    const snake = await loadEvalSetFile(fixture('weather.evalset.json'));
    const camel = await loadEvalSetFile(fixture('camel.evalset.json'));
    expect(snake.evalSetId).toBe('weather_set');
    expect(snake.evalCases.map((c) => c.evalId)).toEqual(['paris_weather', 'two_cities']);
    const paris = snake.evalCases[0]!;
    expect(paris.sessionInput).toEqual({
      appName: 'weather',
      userId: 'tester',
      state: { units: 'metric' },
    });
    expect(paris.conversation![0]!.userContent.parts).toEqual([
      { text: 'What is the weather in Paris?' },
    ]);
    expect(paris.conversation![0]!.intermediateData!.toolUses).toEqual([
      { args: { city: 'Paris' }, name: 'get_weather' },
    ]);
    expect(snake.evalCases[1]!.sessionInput).toBeUndefined();
    expect(camel.evalCases[0]).toEqual(paris);
  });

  it('names the path of a bad field in the spelling of the file', async () => {
    const error = await loadEvalSetFile(fixture('bad.evalset.json')).catch((e: unknown) => e);
    expect(EvalFileError.isInstance(error)).toBe(true);
    const issues = (error as EvalFileError).issues;
    expect(issues.map((i) => i.path)).toEqual([
      'eval_cases[1].conversation[0].user_content.parts[0].text',
    ]);
    expect((error as Error).message).toContain(
      'eval_cases[1].conversation[0].user_content.parts[0].text',
    );
    expect((error as Error).message).toMatch(/^Invalid eval file \/.*bad\.evalset\.json: /);
  });

  it('rejects a case with both a conversation and a scenario, and one with neither', () => {
    const both = {
      eval_set_id: 's',
      eval_cases: [
        {
          eval_id: 'c',
          conversation: [],
          conversation_scenario: { starting_prompt: 'a', conversation_plan: 'b' },
        },
      ],
    };
    const neither = { eval_set_id: 's', eval_cases: [{ eval_id: 'c' }] };
    for (const json of [both, neither]) {
      expect(() => parseEvalSet(json)).toThrow(
        /eval_cases\[0\]\.conversation: Exactly one of conversation/,
      );
    }
  });

  it('keeps state and tool argument keys as written while renaming model fields', () => {
    const set = parseEvalSet({
      eval_set_id: 's',
      eval_cases: [
        {
          eval_id: 'c',
          conversation: [
            {
              user_content: { parts: [{ text: 'x' }] },
              intermediate_data: {
                tool_uses: [{ name: 't', args: { some_key: { nested_key: 1 } } }],
              },
            },
          ],
          session_input: { app_name: 'a', user_id: 'u', state: { user_name: 'Ann' } },
        },
      ],
    });
    const evalCase = set.evalCases[0]!;
    expect(evalCase.sessionInput!.state).toEqual({ user_name: 'Ann' });
    expect(evalCase.conversation![0]!.intermediateData!.toolUses![0]!.args).toEqual({
      some_key: { nested_key: 1 },
    });
  });

  it('writes snake_case that reads back to the same set, and answers HTTP in Python alias style', async () => {
    const set = await loadEvalSetFile(fixture('weather.evalset.json'));
    const dir = await mkdtemp(join(tmpdir(), 'adk-eval-'));
    await writeEvalSetFile(join(dir, 'out.evalset.json'), set);
    const written = JSON.parse(await readFile(join(dir, 'out.evalset.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(Object.keys(written)).toEqual([
      'eval_set_id',
      'name',
      'eval_cases',
      'creation_timestamp',
    ]);
    const firstCase = (written.eval_cases as Record<string, unknown>[])[0]!;
    expect(Object.keys(firstCase)).toEqual([
      'eval_id',
      'conversation',
      'session_input',
      'creation_timestamp',
    ]);
    expect(await loadEvalSetFile(join(dir, 'out.evalset.json'))).toEqual(set);
    // Python's HTTP answers: EvalSet's own fields unaliased, nested models camelCase.
    const http = serializeEvalSet(set, 'alias') as Record<string, unknown>;
    expect(Object.keys(http)).toContain('eval_cases');
    expect(Object.keys((http.eval_cases as Record<string, unknown>[])[0]!)).toContain(
      'sessionInput',
    );
  });

  it('converts an older *.test.json with the initial.session.json beside it', async () => {
    const set = await loadEvalSetFile(fixture('legacy/weather.test.json'));
    expect(set.evalCases).toHaveLength(1);
    const evalCase = set.evalCases[0]!;
    expect(evalCase.evalId).toBe('weather.test.json');
    expect(evalCase.sessionInput).toEqual({
      appName: 'weather',
      userId: 'legacy_user',
      state: { units: 'metric' },
    });
    expect(evalCase.conversation!.map((i) => i.intermediateData!.toolUses)).toEqual([
      [{ name: 'get_weather', args: { city: 'Paris' } }],
      [],
    ]);
    expect(evalCase.conversation![1]!.finalResponse).toEqual({
      role: 'model',
      parts: [{ text: 'Hello! Ask me about the weather.' }],
    });
  });

  it('reports a legacy turn without a query by its path', () => {
    expect(() => parseEvalSet([{ query: 'a' }, { reference: 'b' }], 'x.test.json')).toThrow(
      /\[1\]\.query: expected a string/,
    );
  });
});

describe('eval config files', () => {
  it('reads thresholds and criteria in either spelling and uses Python defaults without a file', async () => {
    const config = await loadEvalConfig(fixture('test_config.json'));
    expect(metricsFromConfig(config)).toEqual([
      {
        metricName: 'tool_trajectory_avg_score',
        threshold: 1,
        criterion: { threshold: 1, matchType: 'IN_ORDER' },
      },
      { metricName: 'response_match_score', threshold: 0.8, criterion: { threshold: 0.8 } },
    ]);
    const defaults = await loadEvalConfig(undefined, join(tmpdir(), 'nowhere', 'x.evalset.json'));
    expect(defaults.criteria).toEqual({ tool_trajectory_avg_score: 1, response_match_score: 0.8 });
    const beside = await loadEvalConfig(undefined, fixture('legacy/weather.test.json'));
    expect(beside.criteria.response_match_score).toEqual({ threshold: 0.6 });
  });

  it('names a bad criterion', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'adk-eval-'));
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      join(dir, 'c.json'),
      JSON.stringify({ criteria: { response_match_score: 'high' } }),
    );
    await expect(loadEvalConfig(join(dir, 'c.json'))).rejects.toThrow(
      /criteria\.response_match_score/,
    );
  });
});

describe('eval set result files', () => {
  const result: EvalSetResult = {
    evalSetResultId: 'weather_weather_set_1750000000.5',
    evalSetResultName: 'weather_weather_set_1750000000.5',
    evalSetId: 'weather_set',
    evalCaseResults: [
      {
        evalSetFile: 'weather_set',
        evalSetId: 'weather_set',
        evalId: 'paris_weather',
        finalEvalStatus: 1,
        evalMetricResults: [],
        overallEvalMetricResults: [
          { metricName: 'response_match_score', threshold: 0.8, score: 1, evalStatus: 1 },
        ],
        evalMetricResultPerInvocation: [],
        sessionId: '___eval___session___1',
        userId: 'tester',
      },
    ],
    creationTimestamp: 1750000000.5,
  };

  it('writes the snake_case JSON encoded as a JSON string, as Python does, and reads it back', () => {
    const text = formatEvalSetResultFile(result);
    const outer = JSON.parse(text) as unknown;
    expect(typeof outer).toBe('string');
    const inner = JSON.parse(outer as string) as Record<string, unknown>;
    expect(inner.eval_set_result_id).toBe('weather_weather_set_1750000000.5');
    expect((inner.eval_case_results as Record<string, unknown>[])[0]!.final_eval_status).toBe(1);
    expect(parseEvalSetResult(text)).toEqual(result);
  });

  it('also reads a plain JSON object', () => {
    const plain = JSON.parse(JSON.parse(formatEvalSetResultFile(result)) as string) as unknown;
    expect(parseEvalSetResult(JSON.stringify(plain))).toEqual(result);
  });
});
