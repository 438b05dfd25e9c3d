import { describe, expect, it } from 'vitest';

import type { LlmResponse } from '@adk/core';
import { FakeModel } from '@adk/core/testing';

import { MetricRegistry, evaluate, formatOutcomeTable, type EvalSet } from '../src';
import { weatherAgent } from './weather-agent';

const evalSet: EvalSet = {
  evalSetId: 'cost',
  evalCases: [
    {
      evalId: 'paris',
      conversation: [
        {
          invocationId: 'i1',
          userContent: { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
          finalResponse: { role: 'model', parts: [{ text: 'It is sunny in Paris.' }] },
          intermediateData: { toolUses: [{ name: 'get_weather', args: { city: 'Paris' } }] },
          creationTimestamp: 0,
        },
      ],
      creationTimestamp: 0,
    },
  ],
  creationTimestamp: 0,
};

describe("Python ADK's efficiency metrics", () => {
  it('report tool calls, model calls, tokens and time per invocation, and never fail a case', async () => {
    const responses: LlmResponse[] = [
      {
        content: {
          role: 'model',
          parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }],
        },
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      },
      {
        content: { role: 'model', parts: [{ text: 'It is sunny in Paris.' }] },
        usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 7, totalTokenCount: 27 },
      },
    ];
    const model = new FakeModel({ name: 'fake-weather', responses });
    // Thresholds of informational metrics are ignored: a huge one fails nothing.
    const outcome = await evaluate(weatherAgent(model), evalSet, {
      metrics: [
        { metricName: 'tool_trajectory_avg_score', threshold: 1 },
        { metricName: 'tool_call_count_v1', threshold: 1e9 },
        { metricName: 'inference_call_count_v1', threshold: 1e9 },
        { metricName: 'token_usage_v1', threshold: 1e9 },
        { metricName: 'duration_v1', threshold: 1e9 },
      ],
    });
    expect(outcome.passed).toBe(true);
    const [result] = outcome.evalCaseResults;
    const overall = Object.fromEntries(
      result!.overallEvalMetricResults.map((m) => [m.metricName, [m.score, m.evalStatus]]),
    );
    expect(overall).toMatchObject({
      tool_trajectory_avg_score: [1, 1],
      tool_call_count_v1: [1, 3],
      inference_call_count_v1: [2, 3],
      token_usage_v1: [42, 3],
    });
    expect(overall.duration_v1![0]).toBeGreaterThan(0);
    expect(overall.duration_v1![1]).toBe(3);
    const perInvocation = result!.evalMetricResultPerInvocation[0]!.evalMetricResults;
    expect(perInvocation.find((m) => m.metricName === 'token_usage_v1')!.score).toBe(42);
    expect(outcome.cases[0]!.evalStatus).toBe(1);
    expect(formatOutcomeTable(outcome)).toMatch(
      /paris\s+token_usage_v1\s+42\.000\s+1000000000\s+NOT_EVALUATED/,
    );
    expect(new MetricRegistry().metricsInfo().map((i) => i.metricName)).toEqual(
      expect.arrayContaining(['tool_call_count_v1', 'inference_call_count_v1', 'token_usage_v1']),
    );
  });
});
