import { describe, expect, it } from 'vitest';

import { FakeModel } from '@adk/core/testing';

import {
  MetricRegistry,
  UnknownMetricError,
  metricContext,
  parseRubricVerdicts,
  rouge1,
  rougeTokenize,
  toolCallsMatch,
  textOf,
  type EvalCase,
  type EvalMetric,
  type Invocation,
} from '../src';

function invocation(
  text: string,
  tools: { name: string; args?: Record<string, unknown> }[] = [],
  user = 'q',
): Invocation {
  return {
    invocationId: '',
    userContent: { role: 'user', parts: [{ text: user }] },
    finalResponse: { role: 'model', parts: [{ text }] },
    intermediateData: { toolUses: tools },
    creationTimestamp: 0,
  };
}

const evalCase: EvalCase = { evalId: 'c', conversation: [], creationTimestamp: 0 };

async function score(
  metric: EvalMetric,
  actual: Invocation[],
  expected: Invocation[],
  judge?: FakeModel,
) {
  return new MetricRegistry()
    .create(metric, metricContext(judge))
    .evaluate({ actual, expected, evalCase });
}

describe('tool_trajectory_avg_score', () => {
  const a = { name: 'a', args: { x: 1 } };
  const b = { name: 'b', args: { y: [1, 2] } };
  const c = { name: 'c' };

  it('matches EXACT, IN_ORDER and ANY_ORDER as Python does', () => {
    expect(toolCallsMatch([a, b], [a, b], 'EXACT')).toBe(true);
    expect(toolCallsMatch([a, c, b], [a, b], 'EXACT')).toBe(false);
    expect(toolCallsMatch([a, c, b], [a, b], 'IN_ORDER')).toBe(true);
    expect(toolCallsMatch([b, a], [a, b], 'IN_ORDER')).toBe(false);
    expect(toolCallsMatch([b, a], [a, b], 'ANY_ORDER')).toBe(true);
    expect(toolCallsMatch([a], [a, a], 'ANY_ORDER')).toBe(false);
    expect(toolCallsMatch([], [], 'EXACT')).toBe(true);
    expect(toolCallsMatch([c], [], 'IN_ORDER')).toBe(true);
    expect(toolCallsMatch([{ name: 'a', args: { x: 2 } }], [a], 'EXACT')).toBe(false);
    expect(toolCallsMatch([{ name: 'a', args: { x: 2 } }], [a], 'EXACT', true)).toBe(true);
  });

  it('averages 1/0 per invocation against the threshold', async () => {
    const result = await score(
      {
        metricName: 'tool_trajectory_avg_score',
        threshold: 1,
        criterion: { threshold: 1, matchType: 'IN_ORDER' },
      },
      [invocation('', [a, c, b]), invocation('', [b])],
      [invocation('', [a, b]), invocation('', [a])],
    );
    expect(result.perInvocationResults.map((r) => [r.score, r.evalStatus])).toEqual([
      [1, 1],
      [0, 2],
    ]);
    expect(result.overallScore).toBe(0.5);
    expect(result.overallEvalStatus).toBe(2);
  });
});

describe('response_match_score (ROUGE-1)', () => {
  it('tokenises as rouge_score: lowercase, non-alphanumerics split, Porter stems over three letters', () => {
    expect(rougeTokenize("The dogs' RUNNING, isn't it?", true)).toEqual([
      'the',
      'dog',
      'run',
      'isn',
      't',
      'it',
    ]);
    expect(rougeTokenize('Ponies ran', false)).toEqual(['ponies', 'ran']);
  });

  it('scores hand-computed F-measures', () => {
    // candidate [run, dog], reference [the, dog, run]: P = 1, R = 2/3, F = 0.8.
    expect(rouge1('running dogs', 'the dog runs').fmeasure).toBeCloseTo(0.8, 10);
    // Clipped counts: overlap 1, P = 1/3, R = 1/2, F = 0.4.
    expect(rouge1('the the the', 'the cat').fmeasure).toBeCloseTo(0.4, 10);
    // [it is sunni and 21 degre in pari] vs [the weather in pari is sunni]: overlap 4, P 4/8, R 4/6.
    expect(
      rouge1('It is sunny and 21 degrees in Paris.', 'The weather in Paris is sunny.').fmeasure,
    ).toBeCloseTo(4 / 7, 10);
    expect(rouge1('', 'anything').fmeasure).toBe(0);
  });

  it('averages over invocations', async () => {
    const result = await score(
      { metricName: 'response_match_score', threshold: 0.8 },
      [invocation('running dogs'), invocation('exact words')],
      [invocation('the dog runs'), invocation('exact words')],
    );
    expect(result.perInvocationResults.map((r) => r.evalStatus)).toEqual([1, 1]);
    expect(result.overallScore).toBeCloseTo(0.9, 10);
    expect(result.overallEvalStatus).toBe(1);
  });
});

describe('final_response_match_v2', () => {
  it('asks the judge numSamples times per invocation and takes the majority (a tie is invalid)', async () => {
    const answers = [
      // Invocation 1: 3 valid, 1 invalid, 1 unreadable -> valid.
      '{"is_the_agent_response_valid": "valid"}',
      '{"is_the_agent_response_valid": "invalid"}',
      '```json\n{"reasoning": "same", "is_the_agent_response_valid": "VALID"}\n```',
      '{"is_the_agent_response_valid": "valid"}',
      'I think so',
      // Invocation 2: 1 valid, 1 invalid, 3 without the key -> tie -> invalid.
      '{"is_the_agent_response_valid": "valid"}',
      '{"is_the_agent_response_valid": "invalid"}',
      '{}',
      '{}',
      '{}',
    ];
    const judge: FakeModel = new FakeModel({
      name: 'my-judge',
      responses: (request): string => {
        const prompt = textOf(request.contents[0]);
        const first = prompt.includes('Agent response:\nfirst');
        const already: number =
          judge.requests.filter(
            (r) => textOf(r.contents[0]).includes('Agent response:\nfirst') === first,
          ).length - 1;
        return answers[(first ? 0 : 5) + already]!;
      },
    });
    const names: string[] = [];
    const registry = new MetricRegistry();
    const result = await registry
      .create(
        {
          metricName: 'final_response_match_v2',
          threshold: 0.5,
          criterion: {
            threshold: 0.5,
            judgeModelOptions: { judgeModel: 'my-judge', numSamples: 5 },
          },
        },
        metricContext((name) => {
          names.push(name);
          return judge;
        }),
      )
      .evaluate({
        actual: [invocation('first'), invocation('second')],
        expected: [invocation('reference one'), invocation('reference two')],
        evalCase,
      });
    expect(judge.requests).toHaveLength(10);
    expect(names.every((n) => n === 'my-judge')).toBe(true);
    expect(textOf(judge.requests[0]!.contents[0])).toContain('Reference response:\nreference one');
    expect(result.perInvocationResults.map((r) => r.score)).toEqual([1, 0]);
    expect(result.overallScore).toBe(0.5);
    expect(result.overallEvalStatus).toBe(1);
  });
});

describe('rubric-based metrics', () => {
  const rubrics = [
    { rubricId: 'concise', rubricContent: { textProperty: 'The response is concise.' } },
    { rubricId: 'cites', rubricContent: { textProperty: 'The response cites the tool result.' } },
  ];
  const verdicts = (concise: string, cites: string, withIds = true) =>
    [
      withIds ? 'ID: concise' : '',
      'Property: The response is concise.',
      'Rationale: short.',
      `Verdict: ${concise}`,
      withIds ? 'ID: cites' : '',
      'Property: **The response cites the tool result.**',
      'Rationale: mentions it.',
      `Verdict: ${cites}`,
    ].join('\n');

  it('parses verdicts and rejects an answer whose counts disagree', () => {
    expect(parseRubricVerdicts(verdicts('yes', 'no'))).toEqual([
      {
        rubricId: 'concise',
        propertyText: 'The response is concise.',
        rationale: 'short.',
        score: 1,
      },
      {
        rubricId: 'cites',
        propertyText: '**The response cites the tool result.**',
        rationale: 'mentions it.',
        score: 0,
      },
    ]);
    expect(
      parseRubricVerdicts('Property: a\nRationale: b\nProperty: c\nRationale: d\nVerdict: yes'),
    ).toEqual([]);
  });

  it('takes the majority per rubric over samples and the mean over rubrics', async () => {
    const samples = [verdicts('yes', 'no'), verdicts('Yes.', 'yes', false), verdicts('no', 'no')];
    let call = 0;
    const judge = new FakeModel({ responses: () => samples[call++ % 3]! });
    const result = await score(
      {
        metricName: 'rubric_based_final_response_quality_v1',
        threshold: 0.6,
        criterion: {
          threshold: 0.6,
          rubrics,
          judgeModelOptions: { judgeModel: 'j', numSamples: 3 },
        },
      },
      [invocation('It is sunny.')],
      [invocation('ref')],
      judge,
    );
    expect(textOf(judge.requests[0]!.contents[0])).toContain(
      'Property: The response cites the tool result.',
    );
    const perInvocation = result.perInvocationResults[0]!;
    expect(perInvocation.rubricScores!.map((s) => [s.rubricId, s.score])).toEqual([
      ['concise', 1],
      ['cites', 0],
    ]);
    expect(perInvocation.score).toBe(0.5);
    expect(result.overallScore).toBe(0.5);
    expect(result.overallEvalStatus).toBe(2);
  });

  it('judges tool use with the calls in the prompt', async () => {
    const judge = new FakeModel({ responses: () => verdicts('yes', 'yes') });
    const result = await score(
      {
        metricName: 'rubric_based_tool_use_quality_v1',
        threshold: 1,
        criterion: { threshold: 1, rubrics, judgeModelOptions: { judgeModel: 'j', numSamples: 1 } },
      },
      [invocation('x', [{ name: 'get_weather', args: { city: 'Paris' } }])],
      [invocation('x')],
      judge,
    );
    expect(textOf(judge.requests[0]!.contents[0])).toContain('"city":"Paris"');
    expect(result.overallScore).toBe(1);
  });
});

describe('custom metrics', () => {
  it('registers a per-invocation scorer and lists it in metrics info', async () => {
    const registry = new MetricRegistry().registerScorer('mentions_paris', (actual) =>
      textOf(actual.finalResponse).includes('Paris') ? 1 : 0,
    );
    const result = await registry
      .create({ metricName: 'mentions_paris', threshold: 0.5 }, metricContext())
      .evaluate({
        actual: [invocation('Paris'), invocation('Rome'), invocation('Paris!')],
        evalCase,
      });
    expect(result.overallScore).toBeCloseTo(2 / 3, 10);
    expect(registry.metricsInfo().map((m) => m.metricName)).toContain('mentions_paris');
  });

  it('fails with a typed error on an unknown metric', () => {
    expect(() =>
      new MetricRegistry().create({ metricName: 'nope', threshold: 1 }, metricContext()),
    ).toThrow(UnknownMetricError);
  });
});

describe("NLTK's Porter stemmer", () => {
  it('stems as NLTK 3.8 does, its departures from Porter included', async () => {
    const { readFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { porterStem } = await import('../src');
    const fixture = JSON.parse(
      await readFile(join(import.meta.dirname, '__fixtures__', 'nltk-porter-stems.json'), 'utf8'),
    ) as { stems: Record<string, string> };
    const wrong = Object.entries(fixture.stems).filter(([word, stem]) => porterStem(word) !== stem);
    expect(Object.keys(fixture.stems).length).toBeGreaterThan(900);
    expect(wrong).toEqual([]);
    expect(
      ['dying', 'skies', 'today', 'enjoy', 'crying', 'generalization', 'ties'].map(porterStem),
    ).toEqual(['die', 'sky', 'today', 'enjoy', 'cri', 'gener', 'tie']);
  });
});
