import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { LlmAgent, Runner, userContent, type Event, type Model } from '@adk/core';

import { RecordingModel, ReplayMissError, ReplayModel, evaluate, loadCassette } from '../src';
import { getWeather, weatherAgent, weatherModel } from './weather-agent';

/** The events of a streamed run, without what differs per run (ids, times). */
async function streamedRun(model: Model, question: string): Promise<string> {
  const agent = new LlmAgent({
    name: 'weather',
    model,
    instruction: 'Answer weather questions.',
    tools: [getWeather],
  });
  const runner = new Runner({ appName: 'weather', agent, autoCreateSession: true });
  const events: Event[] = [];
  for await (const event of runner.run({
    userId: 'u',
    sessionId: 's',
    newMessage: userContent(question),
    runConfig: { streamingMode: 'sse' },
  })) {
    events.push(event);
  }
  return JSON.stringify(
    events.map(({ id: _id, timestamp: _t, invocationId: _i, ...rest }) => rest),
    (key, value: unknown) => (key === 'id' && typeof value === 'string' ? '<id>' : value),
  );
}

const failingModel: Model = {
  name: 'fake-weather',
  // eslint-disable-next-line require-yield
  async *generate() {
    throw new Error('the real model must not be called on replay');
  },
};

describe('RecordingModel and ReplayModel', () => {
  it('record a streamed run with tools, then replay it byte for byte', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'adk-cassette-'));
    const cassette = join(dir, 'weather.cassette.jsonl');
    const recorded = await streamedRun(
      new RecordingModel(weatherModel({ stream: true }), { cassette }),
      'Weather in Paris?',
    );
    const entries = await loadCassette(cassette);
    expect(entries).toHaveLength(2);
    expect(entries.every((e) => e.stream)).toBe(true);
    // The streamed answer kept its chunks: two partial ones, then the complete one.
    expect(entries[1]!.responses.map((r) => r.partial === true)).toEqual([true, true, false]);
    expect(recorded).toContain('"partial":true');

    const replay = await ReplayModel.fromFile(cassette);
    const rerecord = join(dir, 'again.cassette.jsonl');
    const replayed = await streamedRun(
      new RecordingModel(replay.as('fake-weather'), { cassette: rerecord }),
      'Weather in Paris?',
    );
    expect(replayed).toBe(recorded);
    expect(await readFile(rerecord, 'utf8')).toBe(await readFile(cassette, 'utf8'));
  });

  it('fails an unrecorded request with a typed error and a diff against the nearest one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'adk-cassette-'));
    const cassette = join(dir, 'c.jsonl');
    await streamedRun(
      new RecordingModel(weatherModel({ stream: true }), { cassette }),
      'Weather in Paris?',
    );
    const replay = await ReplayModel.fromFile(cassette);
    const recordedRequest = (await loadCassette(cassette))[0]!.request as Record<string, unknown>;
    const asked = { ...recordedRequest, contents: [userContent('Weather in Rome?')] };
    const error = await (async () => {
      for await (const _ of replay.as('fake-weather').generate(asked as never, { stream: true })) {
        // unreachable
      }
    })().catch((e: unknown) => e);
    expect(ReplayMissError.isInstance(error)).toBe(true);
    const miss = error as ReplayMissError;
    expect(miss.cassette).toBe(cassette);
    expect(miss.diff).toMatch(/^- +"text": "Weather in Paris\?"$/m);
    expect(miss.diff).toMatch(/^\+ +"text": "Weather in Rome\?"$/m);
    expect(miss.message).toContain('2 line(s) differ');
    // Through an agent, the miss surfaces as the run's error event, naming the cassette.
    const run = await streamedRun(replay.as('fake-weather'), 'Weather in Rome?');
    expect(run).toContain('REPLAY_MISS');
    const empty = new ReplayModel([], { cassette: 'empty.jsonl' });
    expect(await streamedRun(empty.as('x'), 'hi')).toContain('the cassette is empty');
  });

  it('lets evaluate() record against the real model once, then replay offline', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'adk-cassette-'));
    const cassette = join(dir, 'eval.cassette.jsonl');
    const evalSet = join(import.meta.dirname, '__fixtures__', 'weather.evalset.json');
    const first = await evaluate(weatherAgent(), evalSet, { cassette, concurrency: 1 });
    expect(first.passed).toBe(true);
    const lines = (await readFile(cassette, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(6);
    const second = await evaluate(weatherAgent(failingModel as never), evalSet, { cassette });
    expect(second.passed).toBe(true);
    expect(second.cases).toEqual(first.cases);
    expect((await readFile(cassette, 'utf8')).trim().split('\n')).toHaveLength(6);
  });
});
