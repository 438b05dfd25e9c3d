import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { LlmAgent } from '../agents/llm-agent';
import { getText, userContent } from '../content';
import { COMPACTION_RANGE_METADATA_KEY, type Event } from '../events';
import { Runner } from '../runner/runner';
import { FakeModel } from '../testing/fake-model';
import { SlidingWindowCompressor } from './sliding-window-compressor';
import { SummarizeCompressor } from './summarize-compressor';

async function run(runner: Runner, text: string): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of runner.run({
    userId: 'u',
    sessionId: 's',
    newMessage: userContent(text),
  })) {
    out.push(event);
  }
  return out;
}

const texts = (model: FakeModel, call: number): string[] =>
  (model.requests[call]?.contents ?? []).map((content) => getText(content));

describe('context compression in a run', () => {
  // Compactions are recorded as timestamp ranges and never split events sharing a millisecond; a
  // clock that ticks on every read makes the boundaries of these scenarios deterministic.
  beforeEach(() => {
    let now = 1_700_000_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => now++);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('records the compaction as an event once, and later requests reuse it', async () => {
    const model = new FakeModel({ responses: (_request, index) => `a${index + 1}` });
    const agent = new LlmAgent({
      name: 'bot',
      model,
      contextCompressor: new SlidingWindowCompressor({ maxEvents: 4, keepEvents: 2 }),
    });
    const runner = new Runner({ appName: 'app', agent, autoCreateSession: true });
    await run(runner, 'q1');
    await run(runner, 'q2');
    const third = await run(runner, 'q3');
    // q1 a1 q2 a2 q3 is five messages: the older ones are compacted before the model call, cut
    // where an invocation starts (keeping two would start the history with the model's a2).
    expect(third[0]?.actions.compaction).toBeDefined();
    expect(third[0]?.author).toBe('bot');
    expect(texts(model, 2)).toEqual(['q2', 'a2', 'q3']);
    await run(runner, 'q4');
    expect(texts(model, 3)).toEqual(['q3', 'a3', 'q4']);
    const session = await runner.sessionService.getSession({
      appName: 'app',
      userId: 'u',
      sessionId: 's',
    });
    // Each compaction was recorded once; the first is folded into the second. The stored
    // compaction keeps the official ADKs' three members; the range's event ids ride in the
    // event's customMetadata.
    const compactions = session!.events.filter((e) => e.actions.compaction);
    expect(compactions).toHaveLength(2);
    const ids = session!.events.map((e) => e.id);
    expect(Object.keys(compactions[0]!.actions.compaction!).sort()).toEqual([
      'compactedContent',
      'endTimestamp',
      'startTimestamp',
    ]);
    expect(compactions[0]?.customMetadata).toEqual({
      [COMPACTION_RANGE_METADATA_KEY]: { startEventId: ids[0], endEventId: ids[1] },
    });
  });

  it('compacts events that share one millisecond, by event order', async () => {
    vi.spyOn(Date, 'now').mockImplementation(() => 1_800_000_000_000);
    const model = new FakeModel({ responses: (_request, index) => `a${index + 1}` });
    const agent = new LlmAgent({
      name: 'bot',
      model,
      contextCompressor: new SlidingWindowCompressor({ maxEvents: 4, keepEvents: 2 }),
    });
    const runner = new Runner({ appName: 'app', agent, autoCreateSession: true });
    for (const text of ['q1', 'q2', 'q3', 'q4']) await run(runner, text);
    // Every event has the same timestamp: a timestamp range could never cut between them.
    expect(texts(model, 2)).toEqual(['q2', 'a2', 'q3']);
    expect(texts(model, 3)).toEqual(['q3', 'a3', 'q4']);
  });

  it('summarises older history with a model and shows the summary in place', async () => {
    const summariser = new FakeModel({
      name: 'summariser',
      responses: ['The user greeted twice.'],
    });
    const model = new FakeModel({ responses: (_request, index) => `a${index + 1}` });
    const agent = new LlmAgent({
      name: 'bot',
      model,
      contextCompressor: new SummarizeCompressor({
        model: summariser,
        maxEvents: 4,
        keepEvents: 1,
      }),
    });
    const runner = new Runner({ appName: 'app', agent, autoCreateSession: true });
    await run(runner, 'hello');
    await run(runner, 'hello again');
    await run(runner, 'what did I say?');
    expect(getText(summariser.requests[0]?.contents[0])).toBe(
      'user: hello\nbot: a1\nuser: hello again\nbot: a2',
    );
    expect(texts(model, 2)).toEqual([
      '[Previous context summary]\nThe user greeted twice.',
      'what did I say?',
    ]);
  });

  it('reports a failing compressor and still answers with the full history', async () => {
    const summariser = new FakeModel({ responses: [new Error('summariser down')] });
    const model = new FakeModel({ responses: (_request, index) => `a${index + 1}` });
    const agent = new LlmAgent({
      name: 'bot',
      model,
      contextCompressor: new SummarizeCompressor({
        model: summariser,
        maxEvents: 2,
        keepEvents: 1,
      }),
    });
    const runner = new Runner({ appName: 'app', agent, autoCreateSession: true });
    await run(runner, 'q1');
    const second = await run(runner, 'q2');
    expect(second[0]).toMatchObject({ errorCode: 'CONTEXT_COMPRESSION_FAILED' });
    expect(second[0]?.errorMessage).toContain('summariser down');
    expect(getText(second.at(-1)?.content)).toBe('a2');
    expect(texts(model, 1)).toEqual(['q1', 'a1', 'q2']);
  });
});
