import { describe, expect, it } from 'vitest';

import type { Part } from '../content';
import { ContextCompressionError, InvalidArgumentError } from '../errors';
import { createEvent, type Event, type EventCompaction } from '../events';
import { buildContents } from '../history/index';
import type { LlmRequest, LlmResponse, Model } from '../models';
import type { ContextCompressor } from './context-compressor';
import { SlidingWindowCompressor } from './sliding-window-compressor';
import { SummarizeCompressor } from './summarize-compressor';
import { TokenBudgetCompressor } from './token-budget-compressor';
import { TruncateCompressor } from './truncate-compressor';

let clock = 10_000;
let invocation = 0;
/** An event; a user message opens a new invocation, as `Runner.run` does. */
function ev(author: string, parts: Part[]): Event {
  const role = author === 'user' || parts.some((p) => p.functionResponse) ? 'user' : 'model';
  if (author === 'user' && !parts.some((p) => p.functionResponse)) invocation++;
  return createEvent({
    invocationId: `inv-${invocation}`,
    author,
    content: { role, parts },
    timestamp: clock++,
  });
}
function conversation(turns: number): Event[] {
  const events: Event[] = [];
  for (let i = 1; i <= turns; i++)
    events.push(ev('user', [{ text: `q${i}` }]), ev('bot', [{ text: `a${i}` }]));
  return events;
}
function record(events: Event[], compaction: EventCompaction | undefined): Event[] {
  if (!compaction) return events;
  return [
    ...events,
    createEvent({
      invocationId: 'inv',
      author: 'bot',
      timestamp: clock++,
      actions: { compaction },
    }),
  ];
}
const texts = (events: Event[]): (string | undefined)[] =>
  buildContents(events, { agentName: 'bot' }).map((c) => c.parts.map((p) => p.text ?? '').join(''));

async function compact(compressor: ContextCompressor, events: Event[]): Promise<Event[]> {
  return record(events, await compressor.compact({ events, agentName: 'bot' }));
}

class ScriptedModel implements Model {
  readonly name = 'summariser';
  readonly requests: LlmRequest[] = [];
  constructor(private readonly reply: (request: LlmRequest) => LlmResponse) {}
  async *generate(request: LlmRequest): AsyncIterable<LlmResponse> {
    this.requests.push(request);
    yield this.reply(request);
  }
}

describe('SlidingWindowCompressor', () => {
  it('does nothing while within the window', async () => {
    const compressor = new SlidingWindowCompressor({ maxEvents: 4 });
    expect(await compressor.compact({ events: conversation(2), agentName: 'bot' })).toBeUndefined();
  });

  it('keeps the newest messages and drops older ones without a trace', async () => {
    const compressor = new SlidingWindowCompressor({ maxEvents: 4, keepEvents: 2 });
    const events = await compact(compressor, conversation(3));
    expect(texts(events)).toEqual(['q3', 'a3']);
    // The decision is recorded: the next turn within the window does not compact again.
    const next = [...events, ev('user', [{ text: 'q4' }])];
    expect(await compressor.compact({ events: next, agentName: 'bot' })).toBeUndefined();
    expect(texts(next)).toEqual(['q3', 'a3', 'q4']);
  });

  it('folds an earlier compaction into the next one', async () => {
    const compressor = new SlidingWindowCompressor({ maxEvents: 3, keepEvents: 2 });
    let events = await compact(compressor, conversation(2));
    events = await compact(compressor, [
      ...events,
      ev('user', [{ text: 'q3' }]),
      ev('bot', [{ text: 'a3' }]),
    ]);
    expect(texts(events)).toEqual(['q3', 'a3']);
    const compactions = events.filter((e) => e.actions.compaction);
    expect(compactions).toHaveLength(2);
    expect(compactions[1]?.actions.compaction?.startTimestamp).toBe(events[0]?.timestamp);
  });

  it('never separates a function call from its response', async () => {
    const compressor = new SlidingWindowCompressor({ maxEvents: 2, keepEvents: 1 });
    const events = [
      ev('user', [{ text: 'q1' }]),
      ev('bot', [{ text: 'a1' }]),
      ev('user', [{ text: 'q2' }]),
      ev('bot', [{ functionCall: { id: 'c1', name: 'f', args: {} } }]),
      ev('bot', [{ functionResponse: { id: 'c1', name: 'f', response: { ok: 1 } } }]),
    ];
    const compacted = await compact(compressor, events);
    const contents = buildContents(compacted, { agentName: 'bot' });
    expect(
      contents.map(
        (c) => c.parts[0]?.text ?? c.parts[0]?.functionCall?.id ?? c.parts[0]?.functionResponse?.id,
      ),
    ).toEqual(['q2', 'c1', 'c1']);
  });

  it('cuts only between invocations, so what is kept starts with the user turn', async () => {
    const compressor = new SlidingWindowCompressor({ maxEvents: 3, keepEvents: 2 });
    // One invocation with a tool loop, then the current one: a cut inside the first would keep
    // the agent's call without the user message that asked for it.
    const events = [
      ev('user', [{ text: 'q1' }]),
      ev('bot', [{ functionCall: { id: 'x1', name: 'f', args: {} } }]),
      ev('bot', [{ functionResponse: { id: 'x1', name: 'f', response: { ok: 1 } } }]),
      ev('bot', [{ text: 'a1' }]),
      ev('user', [{ text: 'q2' }]),
    ];
    const compacted = await compact(compressor, events);
    expect(texts(compacted)).toEqual(['q2']);
    expect(buildContents(compacted, { agentName: 'bot' })[0]?.role).toBe('user');
    // A single invocation longer than the window is kept whole rather than cut in the middle.
    const single = [
      ev('user', [{ text: 'q' }]),
      ev('bot', [{ functionCall: { id: 'y1', name: 'f', args: {} } }]),
      ev('bot', [{ functionResponse: { id: 'y1', name: 'f', response: { ok: 1 } } }]),
      ev('bot', [{ functionCall: { id: 'y2', name: 'f', args: {} } }]),
      ev('bot', [{ functionResponse: { id: 'y2', name: 'f', response: { ok: 2 } } }]),
    ];
    expect(await compressor.compact({ events: single, agentName: 'bot' })).toBeUndefined();
  });

  it('cuts between events that share a millisecond: event order decides, not timestamps', async () => {
    const compressor = new SlidingWindowCompressor({ maxEvents: 2, keepEvents: 1 });
    const a = ev('user', [{ text: 'a' }]);
    const b = { ...ev('bot', [{ text: 'b' }]), timestamp: a.timestamp };
    const c = { ...ev('user', [{ text: 'c' }]), timestamp: a.timestamp };
    const d = { ...ev('bot', [{ text: 'd' }]), timestamp: a.timestamp };
    const events = await compact(compressor, [a, b, c, d]);
    // Everything shares one millisecond: a timestamp range could not tell b from c.
    expect(texts(events)).toEqual(['c', 'd']);
    expect(events.at(-1)?.actions.compaction).toMatchObject({
      startEventId: a.id,
      endEventId: b.id,
      startTimestamp: a.timestamp,
      endTimestamp: a.timestamp,
    });
  });

  it('still reads a compaction written without event ids (another ADK) by its timestamps', () => {
    const events = conversation(3);
    const compaction: EventCompaction = {
      startTimestamp: events[0]!.timestamp,
      endTimestamp: events[3]!.timestamp,
      compactedContent: { role: 'user', parts: [{ text: 'earlier: q1 q2' }] },
    };
    expect(texts(record(events, compaction))).toEqual([
      '[Previous context summary]\nearlier: q1 q2',
      'q3',
      'a3',
    ]);
  });

  it('rejects invalid options with a typed error', () => {
    expect(() => new SlidingWindowCompressor({ maxEvents: 0 })).toThrow(InvalidArgumentError);
    expect(() => new SlidingWindowCompressor({ maxEvents: 2, keepEvents: 3 })).toThrow(
      InvalidArgumentError,
    );
  });
});

describe('TruncateCompressor', () => {
  it('leaves a marker saying how many events were cut', async () => {
    const events = await compact(
      new TruncateCompressor({ maxEvents: 4, keepEvents: 2 }),
      conversation(3),
    );
    expect(texts(events)).toEqual([
      '[Previous context summary]\nEarlier conversation was truncated (4 events omitted).',
      'q3',
      'a3',
    ]);
  });
});

describe('TokenBudgetCompressor', () => {
  it('keeps the newest messages that fit the budget', async () => {
    const long = 'x'.repeat(400); // 100 tokens
    const events = [
      ev('user', [{ text: long }]),
      ev('bot', [{ text: long }]),
      ev('user', [{ text: long }]),
      ev('bot', [{ text: 'short' }]),
    ];
    const compressor = new TokenBudgetCompressor({ maxTokens: 250, keepTokens: 150 });
    const compacted = await compact(compressor, events);
    expect(texts(compacted)).toEqual([long, 'short']);
    expect(await compressor.compact({ events: compacted, agentName: 'bot' })).toBeUndefined();
  });

  it('keeps at least the latest message even when it alone exceeds the budget', async () => {
    const events = [ev('user', [{ text: 'old' }]), ev('user', [{ text: 'y'.repeat(4000) }])];
    const compacted = await compact(new TokenBudgetCompressor({ maxTokens: 10 }), events);
    expect(texts(compacted)).toEqual(['y'.repeat(4000)]);
  });
});

describe('SummarizeCompressor', () => {
  it('replaces older history with the model’s summary, folding earlier summaries in', async () => {
    const model = new ScriptedModel((request) => ({
      content: {
        role: 'model',
        parts: [{ text: `summary #${request.contents[0]?.parts[0]?.text?.split('\n').length}` }],
      },
    }));
    const compressor = new SummarizeCompressor({ model, maxEvents: 4, keepEvents: 2 });
    let events = await compact(compressor, conversation(3));
    expect(texts(events)).toEqual(['[Previous context summary]\nsummary #4', 'q3', 'a3']);
    expect(model.requests[0]?.contents[0]?.parts[0]?.text).toBe(
      'user: q1\nbot: a1\nuser: q2\nbot: a2',
    );
    expect(model.requests[0]?.systemInstruction).toContain('summary');

    events = await compact(compressor, [
      ...events,
      ev('user', [{ text: 'q4' }]),
      ev('bot', [{ text: 'a4' }]),
    ]);
    expect(model.requests[1]?.contents[0]?.parts[0]?.text).toBe(
      'Summary of earlier conversation: summary #4\nuser: q3\nbot: a3',
    );
    expect(texts(events)).toEqual(['[Previous context summary]\nsummary #3', 'q4', 'a4']);
  });

  it('resolves a model name through the request and triggers on tokens', async () => {
    const model = new ScriptedModel(() => ({ content: { parts: [{ text: 'short' }] } }));
    const compressor = new SummarizeCompressor({ model: 'cheap', maxTokens: 5, keepEvents: 1 });
    const compaction = await compressor.compact({
      events: conversation(3),
      agentName: 'bot',
      resolveModel: (name) => (name === 'cheap' ? model : (undefined as never)),
    });
    expect(compaction?.compactedContent.parts).toEqual([{ text: 'short' }]);
  });

  it('throws a typed error and compacts nothing when the model fails or says nothing', async () => {
    const failing = new SummarizeCompressor({
      model: new ScriptedModel(() => {
        throw new Error('quota');
      }),
      maxEvents: 1,
    });
    await expect(failing.compact({ events: conversation(3), agentName: 'bot' })).rejects.toSatisfy(
      (error: unknown) =>
        ContextCompressionError.isInstance(error) && (error.cause as Error).message === 'quota',
    );
    const empty = new SummarizeCompressor({
      model: new ScriptedModel(() => ({ content: { parts: [] } })),
      maxEvents: 1,
    });
    await expect(empty.compact({ events: conversation(3), agentName: 'bot' })).rejects.toThrow(
      /empty summary/,
    );
    const errored = new SummarizeCompressor({
      model: new ScriptedModel(() => ({ errorCode: 'SAFETY', errorMessage: 'blocked' })),
      maxEvents: 1,
    });
    await expect(errored.compact({ events: conversation(3), agentName: 'bot' })).rejects.toThrow(
      /SAFETY/,
    );
  });

  it('requires a trigger', () => {
    expect(() => new SummarizeCompressor({ model: 'm' })).toThrow(InvalidArgumentError);
  });
});
