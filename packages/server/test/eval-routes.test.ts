import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';

import { FunctionTool, InMemorySessionService, LlmAgent, userContent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { LocalEvalSetResultsStore, LocalEvalSetsStore, loadEvalSetFile } from '@adk/eval';

import { createAdkServer, listen, type RunningServer } from '../src';

const getWeather = new FunctionTool({
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, condition: 'sunny' }),
});

/** Asked about a city it calls get_weather, then answers; `condition` lets a test change the answer. */
function agent(state: { condition: string }) {
  return new LlmAgent({
    name: 'weather',
    tools: [getWeather],
    model: new FakeModel({
      responses: (request) => {
        const last = request.contents.at(-1);
        const result = last?.parts[0]?.functionResponse;
        if (result) return `It is ${state.condition} in ${String(result.response.city)}.`;
        const city = /weather in (\w+)/i.exec(last?.parts[0]?.text ?? '')?.[1] ?? 'Paris';
        return { functionCalls: [{ name: 'get_weather', args: { city } }] };
      },
    }),
  });
}

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(agentsDir?: string) {
  const sessionService = new InMemorySessionService();
  const state = { condition: 'sunny' };
  const app = createAdkServer({
    apps: { weather: { agent: agent(state), autoCreateSession: true } },
    sessionService,
    ...(agentsDir
      ? {
          evals: {
            sets: new LocalEvalSetsStore(agentsDir),
            results: new LocalEvalSetResultsStore(agentsDir),
          },
        }
      : {}),
  });
  server = await listen(app, { port: 0 });
  const base = server.url;
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    // The tests walk arbitrary JSON answers.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: response.status, json: (await response.json()) as any };
  };
  // A conversation to turn into an eval case.
  await call('POST', '/apps/weather/users/u1/sessions/s1', {});
  const run = await call('POST', '/run', {
    appName: 'weather',
    userId: 'u1',
    sessionId: 's1',
    newMessage: userContent('What is the weather in Paris?'),
  });
  expect(run.status).toBe(200);
  return { call, state, sessionService };
}

describe.each(['/apps', '/dev/apps'])('eval routes under %s', (root) => {
  it('create a set, add a session, run it, read the results (the ADK web UI flow)', async () => {
    const { call, state } = await start();
    const app = `${root}/weather`;
    expect((await call('GET', `${app}/eval_sets`)).json).toEqual([]);
    // The web UI creates sets with the newer route and a snake_case body.
    const created = await call('POST', `${app}/eval-sets`, {
      eval_set: { eval_set_id: 'smoke', eval_cases: [] },
    });
    expect(created.status).toBe(200);
    expect(created.json.eval_set_id).toBe('smoke');
    expect(
      (await call('POST', `${app}/eval-sets`, { eval_set: { eval_set_id: 'smoke' } })).status,
    ).toBe(409);
    expect((await call('GET', `${app}/eval_sets`)).json).toEqual(['smoke']);
    expect((await call('GET', `${app}/eval-sets`)).json).toEqual({ evalSetIds: ['smoke'] });

    const added = await call('POST', `${app}/eval_sets/smoke/add_session`, {
      evalId: 'paris',
      sessionId: 's1',
      userId: 'u1',
    });
    expect(added.status).toBe(200);
    expect((await call('GET', `${app}/eval_sets/smoke/evals`)).json).toEqual(['paris']);
    const evalCase = (await call('GET', `${app}/eval_sets/smoke/evals/paris`)).json;
    expect(evalCase.evalId).toBe('paris');
    expect(evalCase.sessionInput).toEqual({ appName: 'weather', userId: 'u1', state: {} });
    expect(evalCase.conversation[0].userContent.parts[0].text).toBe(
      'What is the weather in Paris?',
    );
    expect(evalCase.conversation[0].finalResponse.parts[0].text).toBe('It is sunny in Paris.');
    expect(evalCase.conversation[0].intermediateData.toolUses).toMatchObject([
      { name: 'get_weather', args: { city: 'Paris' } },
    ]);

    const metrics = [
      { metricName: 'tool_trajectory_avg_score', threshold: 1 },
      { metricName: 'response_match_score', threshold: 0.9 },
    ];
    const passed = await call('POST', `${app}/eval_sets/smoke/run_eval`, {
      evalIds: ['paris'],
      evalMetrics: metrics,
    });
    expect(passed.status).toBe(200);
    expect(passed.json).toHaveLength(1);
    // The eval run's session (user u1, `___eval___session___…`) is hidden from the session list,
    // as Python ADK's server hides it; it can still be read by its id.
    const listed = (await call('GET', `/apps/weather/users/u1/sessions`)).json as { id: string }[];
    expect(listed.map((session) => session.id)).toEqual(['s1']);
    expect(passed.json[0].sessionId).toMatch(/^___eval___session___/);
    expect(
      (await call('GET', `/apps/weather/users/u1/sessions/${passed.json[0].sessionId}`)).status,
    ).toBe(200);
    expect(passed.json[0]).toMatchObject({
      evalSetId: 'smoke',
      evalId: 'paris',
      finalEvalStatus: 1,
    });
    expect(
      passed.json[0].overallEvalMetricResults.map((m: { metricName: string; score: number }) => [
        m.metricName,
        m.score,
      ]),
    ).toEqual([
      ['tool_trajectory_avg_score', 1],
      ['response_match_score', 1],
    ]);

    // The agent changes its answer (ROUGE-1 4/5 = 0.8 < 0.9): the newer run route reports the failure.
    state.condition = 'rainy';
    const failed = await call('POST', `${app}/eval-sets/smoke/run`, {
      evalCaseIds: ['paris'],
      evalMetrics: metrics,
    });
    expect(failed.json.runEvalResults[0].finalEvalStatus).toBe(2);
    expect(failed.json.runEvalResults[0].overallEvalMetricResults[1].score).toBeCloseTo(0.8, 10);

    const ids = (await call('GET', `${app}/eval_results`)).json as string[];
    expect(ids).toHaveLength(2);
    expect((await call('GET', `${app}/eval-results`)).json).toEqual({ evalResultIds: ids });
    const result = (await call('GET', `${app}/eval_results/${encodeURIComponent(ids[0]!)}`)).json;
    expect(result.evalSetId).toBe('smoke');
    expect(result.evalSetResultId).toMatch(/^weather_smoke_/);
    expect(result.evalCaseResults[0].sessionId).toMatch(/^___eval___session___/);
    // The eval's session is a real session of the server, as the UI opens it.
    const session = await call(
      'GET',
      `${app.replace(root, '/apps')}/users/u1/sessions/${result.evalCaseResults[0].sessionId}`,
    );
    expect(session.status).toBe(200);
    expect((await call('GET', `${app}/eval-results/nope`)).status).toBe(404);
  });

  it('get, update and delete a case and a set; metrics info', async () => {
    const { call } = await start();
    const app = `${root}/weather`;
    await call('POST', `${app}/eval_sets/manual`);
    await call('POST', `${app}/eval-sets/manual/add-session`, {
      eval_id: 'c1',
      session_id: 's1',
      user_id: 'u1',
    });
    const evalCase = (await call('GET', `${app}/eval-sets/manual/eval-cases/c1`)).json;
    evalCase.conversation[0].finalResponse.parts[0].text = 'Sunny in Paris.';
    // The UI sends UI-only fields too; they are kept out of the way, not rejected.
    expect(
      (await call('PUT', `${app}/eval_sets/manual/evals/c1`, { ...evalCase, extraUiField: 1 }))
        .status,
    ).toBe(200);
    expect(
      (await call('GET', `${app}/eval_sets/manual/evals/c1`)).json.conversation[0].finalResponse
        .parts[0].text,
    ).toBe('Sunny in Paris.');
    const bad = await call('PUT', `${app}/eval_sets/manual/evals/c1`, {
      conversation: [{ userContent: { parts: [{ text: 5 }] } }],
    });
    expect(bad.status).toBe(400);
    expect(bad.json.detail).toContain('conversation[0].userContent.parts[0].text');
    expect(bad.json.detail).toMatch(/^Invalid request body: /);
    expect((await call('DELETE', `${app}/eval-sets/manual/eval-cases/c1`)).status).toBe(200);
    expect((await call('GET', `${app}/eval_sets/manual/evals/c1`)).status).toBe(404);
    expect(
      (
        await call('POST', `${app}/eval_sets/manual/add_session`, {
          evalId: 'x',
          sessionId: 'nope',
          userId: 'u1',
        })
      ).status,
    ).toBe(404);
    expect((await call('DELETE', `${app}/eval_sets/manual`)).status).toBe(200);
    expect((await call('GET', `${app}/eval-sets/manual`)).status).toBe(404);
    const info = (await call('GET', `${app}/metrics-info`)).json.metricsInfo as {
      metricName: string;
      metricValueInfo: unknown;
    }[];
    expect(info.map((m) => m.metricName)).toEqual([
      'tool_trajectory_avg_score',
      'response_match_score',
      'final_response_match_v2',
      'rubric_based_final_response_quality_v1',
      'rubric_based_tool_use_quality_v1',
      'tool_call_count_v1',
      'inference_call_count_v1',
      'token_usage_v1',
      'duration_v1',
      'safety_v1',
      'hallucinations_v1',
    ]);
    expect(info[0]!.metricValueInfo).toEqual({
      interval: { minValue: 0, maxValue: 1, openAtMin: false, openAtMax: false },
    });
    expect((await call('GET', `${root}/nope/eval_sets`)).status).toBe(404);
  });
});

describe('eval routes backed by files', () => {
  it('write the set where Python ADK reads it and results into .adk/eval_history', async () => {
    const agentsDir = await mkdtemp(join(tmpdir(), 'adk-server-evals-'));
    const { call } = await start(agentsDir);
    await call('POST', '/apps/weather/eval-sets', {
      eval_set: { eval_set_id: 'files', eval_cases: [] },
    });
    await call('POST', '/apps/weather/eval_sets/files/add_session', {
      evalId: 'paris',
      sessionId: 's1',
      userId: 'u1',
    });
    const file = join(agentsDir, 'weather', 'files.evalset.json');
    const written = JSON.parse(await readFile(file, 'utf8')) as {
      eval_cases: { eval_id: string }[];
    };
    expect(written.eval_cases[0]!.eval_id).toBe('paris');
    expect((await loadEvalSetFile(file)).evalCases[0]!.conversation).toHaveLength(1);
    await call('POST', '/apps/weather/eval_sets/files/run_eval', {
      evalIds: ['paris'],
      evalMetrics: [{ metricName: 'response_match_score', threshold: 0.5 }],
    });
    const history = await readdir(join(agentsDir, 'weather', '.adk', 'eval_history'));
    expect(history).toHaveLength(1);
    expect(history[0]).toMatch(/^weather_files_[\d.]+\.evalset_result\.json$/);
    expect((await call('POST', '/apps/weather/eval_sets/bad..%2Fx')).status).toBe(400);
  });
});
