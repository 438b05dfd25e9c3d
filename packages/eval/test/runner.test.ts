import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { Event } from '@adk/core';
import { FakeModel } from '@adk/core/testing';

import {
  LlmUserSimulator,
  LocalEvalSetResultsStore,
  evalTargetFromAgent,
  evaluate,
  evaluateEvalSet,
  formatOutcomeTable,
  loadEvalSetFile,
  parseEvalSetResult,
  textOf,
  type EvalSet,
  type EvalTarget,
} from '../src';
import { weatherAgent } from './weather-agent';

const fixture = (name: string) => join(import.meta.dirname, '__fixtures__', name);

describe('evaluateEvalSet', () => {
  it('runs a Python-format eval set (multi-turn case included) and scores it', async () => {
    const outcome = await evaluate(weatherAgent(), fixture('weather.evalset.json'));
    expect(outcome.passed).toBe(true);
    expect(outcome.cases.map((c) => [c.evalId, c.evalStatus])).toEqual([
      ['paris_weather', 1],
      ['two_cities', 1],
    ]);
    const twoCities = outcome.evalCaseResults.find((r) => r.evalId === 'two_cities')!;
    expect(twoCities.evalMetricResultPerInvocation).toHaveLength(2);
    expect(textOf(twoCities.evalMetricResultPerInvocation[1]!.actualInvocation.finalResponse)).toBe(
      'It is sunny and 21 degrees in Oslo.',
    );
    // The second turn saw the first: both turns ran in one session.
    const session = twoCities.sessionDetails as { events: Event[] };
    expect(session.events.filter((e) => e.author === 'user')).toHaveLength(2);
    const paris = outcome.evalCaseResults.find((r) => r.evalId === 'paris_weather')!;
    expect(paris.userId).toBe('tester');
    expect(paris.sessionId).toMatch(/^___eval___session___/);
    expect((paris.sessionDetails as { state: Record<string, unknown> }).state).toEqual({
      units: 'metric',
    });
    expect(formatOutcomeTable(outcome)).toContain('weather_set: 2 passed, 0 failed');
  });

  it('fails a case whose answer or trajectory is off, with the scores per metric', async () => {
    const evalSet = await loadEvalSetFile(fixture('weather.evalset.json'));
    evalSet.evalCases[0]!.conversation![0]!.intermediateData!.toolUses = [
      { name: 'get_weather', args: { city: 'Lyon' } },
    ];
    const outcome = await evaluate(weatherAgent(), evalSet, {
      metrics: [
        { metricName: 'tool_trajectory_avg_score', threshold: 1 },
        { metricName: 'response_match_score', threshold: 0.8 },
      ],
    });
    expect(outcome.passed).toBe(false);
    const paris = outcome.cases.find((c) => c.evalId === 'paris_weather')!;
    expect(paris.evalStatus).toBe(2);
    expect(paris.metrics).toEqual([
      { metricName: 'tool_trajectory_avg_score', threshold: 1, score: 0, evalStatus: 2 },
      { metricName: 'response_match_score', threshold: 0.8, score: 1, evalStatus: 1 },
    ]);
  });

  it('repeats each case numRuns times with at most `concurrency` cases in flight', async () => {
    const evalSet = await loadEvalSetFile(fixture('weather.evalset.json'));
    const agent = weatherAgent();
    const inner = evalTargetFromAgent(agent);
    let inFlight = 0;
    let peak = 0;
    const target: EvalTarget = {
      appName: inner.appName,
      sessionService: inner.sessionService,
      async *run(request) {
        inFlight++;
        peak = Math.max(peak, inFlight);
        try {
          await new Promise((resolve) => setTimeout(resolve, 5));
          yield* inner.run(request);
        } finally {
          inFlight--;
        }
      },
    };
    const progress: number[] = [];
    const outcome = await evaluateEvalSet({
      target,
      evalSet,
      numRuns: 3,
      concurrency: 2,
      onProgress: (p) => progress.push(p.done),
    });
    expect(outcome.evalCaseResults).toHaveLength(6);
    expect(outcome.cases.map((c) => c.runs)).toEqual([3, 3]);
    expect(peak).toBe(2);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('selects cases, and names a missing one', async () => {
    const outcome = await evaluate(weatherAgent(), fixture('weather.evalset.json'), {
      caseIds: ['two_cities'],
    });
    expect(outcome.cases.map((c) => c.evalId)).toEqual(['two_cities']);
    await expect(
      evaluate(weatherAgent(), fixture('weather.evalset.json'), { caseIds: ['nope'] }),
    ).rejects.toThrow(/Eval case "nope" was not found/);
  });

  it('marks a case FAILED with the error when the agent throws, and goes on', async () => {
    const evalSet = await loadEvalSetFile(fixture('weather.evalset.json'));
    const inner = evalTargetFromAgent(weatherAgent());
    const target: EvalTarget = {
      ...inner,
      appName: inner.appName,
      sessionService: inner.sessionService,
      run: (request) => {
        if (textOf(request.newMessage).includes('Paris')) throw new Error('provider down');
        return inner.run(request);
      },
    };
    const outcome = await evaluateEvalSet({ target, evalSet });
    const paris = outcome.evalCaseResults.find((r) => r.evalId === 'paris_weather')!;
    expect(paris.finalEvalStatus).toBe(2);
    expect(paris.error).toBe('Inference failed: provider down');
    expect(outcome.cases.find((c) => c.evalId === 'two_cities')!.evalStatus).toBe(1);
    expect(outcome.passed).toBe(false);
  });

  it('writes results into .adk/eval_history/ as Python names and encodes them', async () => {
    const agentsDir = await mkdtemp(join(tmpdir(), 'adk-eval-history-'));
    const outcome = await evaluate(weatherAgent(), fixture('weather.evalset.json'));
    const store = new LocalEvalSetResultsStore(agentsDir);
    const saved = await store.saveEvalSetResult('weather', 'weather_set', outcome.evalCaseResults);
    expect(saved.evalSetResultId).toMatch(/^weather_weather_set_\d+(\.\d+)?$/);
    const files = await readdir(join(agentsDir, 'weather', '.adk', 'eval_history'));
    expect(files).toEqual([`${saved.evalSetResultName}.evalset_result.json`]);
    const text = await readFile(
      join(agentsDir, 'weather', '.adk', 'eval_history', files[0]!),
      'utf8',
    );
    expect(typeof JSON.parse(text)).toBe('string');
    expect(parseEvalSetResult(text).evalCaseResults.map((r) => r.evalId)).toEqual([
      'paris_weather',
      'two_cities',
    ]);
    expect(await store.listEvalSetResults('weather')).toEqual([saved.evalSetResultId]);
    expect((await store.getEvalSetResult('weather', saved.evalSetResultId))!.evalSetId).toBe(
      'weather_set',
    );
  });
});

describe('conversation scenarios', () => {
  it('lets an LLM user simulator drive the agent until it says </finished>', async () => {
    const simulatorModel = new FakeModel({
      responses: (request) => {
        const prompt = textOf(request.contents[0]);
        return prompt.includes('agent: It is sunny and 21 degrees in Oslo.')
          ? '</finished>'
          : 'And the weather in Oslo?';
      },
    });
    const evalSet: EvalSet = {
      evalSetId: 'sim',
      evalCases: [
        {
          evalId: 'trip',
          conversationScenario: {
            startingPrompt: 'What is the weather in Rome?',
            conversationPlan: 'Ask about Rome, then about Oslo, then stop.',
          },
          creationTimestamp: 0,
        },
      ],
      creationTimestamp: 0,
    };
    const outcome = await evaluate(weatherAgent(), evalSet, {
      metrics: [{ metricName: 'tool_trajectory_avg_score', threshold: 1 }],
      userSimulator: new LlmUserSimulator({ model: simulatorModel }),
    });
    const result = outcome.evalCaseResults[0]!;
    expect(
      result.evalMetricResultPerInvocation.map((p) => textOf(p.actualInvocation.userContent)),
    ).toEqual(['What is the weather in Rome?', 'And the weather in Oslo?']);
    expect(textOf(simulatorModel.requests[0]!.contents[0])).toContain(
      'Ask about Rome, then about Oslo, then stop.',
    );
    // No golden conversation: the trajectory metric has nothing to compare.
    expect(result.overallEvalMetricResults[0]!.evalStatus).toBe(3);
  });

  it('stops after maxAllowedInvocations', async () => {
    const simulator = new LlmUserSimulator({
      model: new FakeModel({ responses: () => 'hello again' }),
      maxAllowedInvocations: 3,
    });
    const outcome = await evaluate(
      weatherAgent(),
      {
        evalSetId: 's',
        evalCases: [
          {
            evalId: 'loop',
            conversationScenario: { startingPrompt: 'hi', conversationPlan: 'never stop' },
            creationTimestamp: 0,
          },
        ],
        creationTimestamp: 0,
      },
      { metrics: [], userSimulator: simulator },
    );
    expect(outcome.evalCaseResults[0]!.evalMetricResultPerInvocation).toHaveLength(3);
  });
});

describe('user simulator from the config', () => {
  it("builds Python's LLM user simulator from user_simulator_config", async () => {
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const dir = await mkdtemp(join(tmpdir(), 'adk-eval-sim-'));
    await writeFile(
      join(dir, 'scenario.evalset.json'),
      JSON.stringify({
        eval_set_id: 'sim',
        eval_cases: [
          {
            eval_id: 'trip',
            conversation_scenario: { starting_prompt: 'hi', conversation_plan: 'Say hi twice.' },
          },
        ],
      }),
    );
    await writeFile(
      join(dir, 'test_config.json'),
      JSON.stringify({
        criteria: {},
        user_simulator_config: { model: 'sim-model', max_allowed_invocations: 2 },
      }),
    );
    const asked: string[] = [];
    const outcome = await evaluate(weatherAgent(), join(dir, 'scenario.evalset.json'), {
      judgeModel: (name) => {
        asked.push(name);
        return new FakeModel({ responses: () => 'hi again' });
      },
    });
    expect(asked).toEqual(['sim-model']);
    expect(outcome.evalCaseResults[0]!.evalMetricResultPerInvocation).toHaveLength(2);
  });
});
