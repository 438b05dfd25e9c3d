import { describe, expect, it } from 'vitest';

import type { Content, Part } from '../content';
import { createEvent, type Event } from '../events';
import { deepFreeze } from '../sessions/append-helpers';
import { buildContents, type BuildContentsOptions } from './build-contents';
import { buildContentsIncrementally, mutableContents } from './contents-cache';
import { INPUT_REJECTED_ERROR_CODE } from './history';
import { withUserTurnsAtEnds } from './turn-order';

/** What a model is sent: the history with user turns at its ends. */
function sentContents(events: readonly Event[], options: BuildContentsOptions): Content[] {
  return withUserTurnsAtEnds(buildContents(events, options));
}

/** Deterministic pseudo-random numbers (mulberry32), so a failing seed can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A random session history exercising every rule of buildContents: own, user and foreign events,
 * calls answered at once, late, twice, never or by the wrong author, repeated and missing ids,
 * framework functions, branches, errors, rejected input, compactions, empty and unfrozen events.
 */
function randomHistory(seed: number, length: number): Event[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const events: Event[] = [];
  const callIds: string[] = [];
  let clock = 1_000;
  let counter = 0;
  const newId = (): string =>
    next() < 0.1 ? pick(['call_0', 'call_1']) : `id-${seed}-${counter++}`;
  for (let index = 0; index < length; index++) {
    const roll = next();
    const author = pick(['user', 'bot', 'bot', 'bot', 'other']);
    const parts: Part[] = [];
    const extra: Partial<Event> = {};
    if (roll < 0.25) {
      parts.push({ text: `text ${index}` });
    } else if (roll < 0.45) {
      const calls = next() < 0.2 ? 2 : 1;
      for (let n = 0; n < calls; n++) {
        const id = next() < 0.05 ? undefined : newId();
        if (id) callIds.push(id);
        const name = next() < 0.05 ? 'adk_request_confirmation' : pick(['f', 'g']);
        parts.push({ functionCall: { ...(id ? { id } : {}), name, args: { n: index } } });
      }
    } else if (roll < 0.7) {
      const id = callIds.length > 0 && next() < 0.85 ? pick(callIds) : newId();
      parts.push({ functionResponse: { id, name: pick(['f', 'g']), response: { index } } });
    } else if (roll < 0.75) {
      parts.push({ text: '' });
    } else if (roll < 0.8) {
      extra.errorCode = next() < 0.3 ? INPUT_REJECTED_ERROR_CODE : 'MODEL_ERROR';
      parts.push({ text: 'failed' });
    } else if (roll < 0.83) {
      const end = clock - 1;
      events.push(
        createEvent({
          invocationId: `inv-${index}`,
          author: 'bot',
          timestamp: clock++,
          actions: {
            compaction: {
              startTimestamp: end - Math.floor(next() * 6),
              endTimestamp: end,
              compactedContent: { role: 'model', parts: [{ text: `summary ${index}` }] },
            },
          },
        }),
      );
      continue;
    } else {
      parts.push({ text: `thought ${index}`, thought: true }, { text: `answer ${index}` });
    }
    const role =
      author === 'user' || parts.some((part) => part.functionResponse) ? 'user' : 'model';
    const event = createEvent({
      invocationId: `inv-${Math.floor(index / 4)}`,
      author,
      content: { role, parts },
      timestamp: clock++,
      ...(next() < 0.1 ? { branch: pick(['a', 'a.b', 'c']) } : {}),
      ...extra,
    });
    events.push(next() < 0.97 ? deepFreeze(event) : event);
  }
  return events;
}

/** Change every content of `contents` in place, as a callback allowed to edit the request may. */
function scribble(contents: Content[]): void {
  for (const content of contents) {
    content.role = 'scribbled';
    for (const part of content.parts) {
      part.text = 'scribbled';
      if (part.functionCall) part.functionCall.name = 'scribbled';
      if (part.functionResponse) part.functionResponse.name = 'scribbled';
    }
    content.parts.push({ text: 'extra' });
  }
  contents.push({ role: 'user', parts: [] });
}

/** A stored (frozen) event of `author` with one part, its role as the flow would record it. */
let clock = 10_000;
function stored(author: string, part: Part, extra: Partial<Event> = {}): Event {
  const role = author === 'user' || part.functionResponse ? 'user' : 'model';
  return deepFreeze(
    createEvent({
      invocationId: extra.invocationId ?? `i${clock}`,
      author,
      content: { role, parts: [part] },
      timestamp: clock++,
      ...extra,
    }),
  );
}

describe('buildContentsIncrementally', () => {
  it('always equals buildContents with user turns at its ends, call after call, over random growing histories', () => {
    const variants: BuildContentsOptions[] = [
      { agentName: 'bot' },
      { agentName: 'bot', branch: 'a' },
      { agentName: 'other' },
      { agentName: 'bot', includeContents: 'none' },
    ];
    for (let seed = 1; seed <= 60; seed++) {
      const history = randomHistory(seed, 140);
      const steps = random(seed * 7919);
      let end = 0;
      let options = variants[0] as BuildContentsOptions;
      while (end < history.length) {
        end = Math.min(history.length, end + 1 + Math.floor(steps() * 5));
        // Sessions hand out a new array per read, holding the same stored event objects.
        const events = history.slice(0, end);
        // Agents take turns now and then (each keeps its own remembered prefix).
        if (steps() < 0.15)
          options = variants[Math.floor(steps() * variants.length)] as BuildContentsOptions;
        const incremental = buildContentsIncrementally(events, options);
        const context = `seed ${seed}, ${end} events, ${JSON.stringify(options)}`;
        expect(incremental, context).toEqual(sentContents(events, options));
        // Callers get a new array of frozen contents: changing them means copying first.
        incremental.push({ role: 'user', parts: [] });
        for (const content of incremental.slice(0, -1)) {
          expect(() => content.parts.push({ text: 'x' })).toThrow(TypeError);
        }
        scribble(mutableContents(incremental));
      }
    }
  });

  it('reuses the previous contents of a long session, and a caller editing them changes nothing', () => {
    const events: Event[] = [];
    const add = (author: string, part: Part): number => events.push(stored(author, part));
    for (let turn = 0; turn < 20; turn++) {
      add('user', { text: `question ${turn}` });
      add('bot', { functionCall: { id: `c${turn}`, name: 'f', args: {} } });
      add('bot', { functionResponse: { id: `c${turn}`, name: 'f', response: { turn } } });
      const first = mutableContents(
        buildContentsIncrementally(events.slice(), { agentName: 'bot' }),
      );
      scribble(first);
      add('bot', { text: `answer ${turn}` });
      const second = buildContentsIncrementally(events.slice(), { agentName: 'bot' });
      expect(second).toEqual(sentContents(events, { agentName: 'bot' }));
      expect(second[second.length - 2]).toEqual({
        role: 'model',
        parts: [{ text: `answer ${turn}` }],
      });
      expect(second[second.length - 1]?.role).toBe('user');
    }
  });

  describe('builds from scratch when new events change how earlier ones render', () => {
    /** 30 stored turns of the agent, then `tail`; checks the prefix is remembered, then the tail. */
    function check(prefixTail: Event[], tail: Event[], agentName = 'bot'): void {
      const events: Event[] = [];
      for (let turn = 0; turn < 30; turn++) {
        events.push(stored('user', { text: `q${turn}` }), stored(agentName, { text: `a${turn}` }));
      }
      events.push(...prefixTail);
      expect(buildContentsIncrementally(events.slice(), { agentName })).toEqual(
        sentContents(events, { agentName }),
      );
      events.push(...tail);
      const expected = sentContents(events, { agentName });
      expect(buildContentsIncrementally(events.slice(), { agentName })).toEqual(expected);
    }

    it('a later call reuses the id of an earlier unanswered response', () => {
      check(
        [stored('user', { functionResponse: { id: 'x', name: 'f', response: { late: true } } })],
        [stored('other', { functionCall: { id: 'x', name: 'f', args: {} } })],
      );
    });

    it('a response answers a call made before the new events', () => {
      check(
        [stored('bot', { functionCall: { id: 'lr', name: 'f', args: {} } })],
        [stored('user', { functionResponse: { id: 'lr', name: 'f', response: { done: true } } })],
      );
    });

    it('a compaction replaces earlier events', () => {
      const first = clock;
      const compaction = createEvent({
        invocationId: 'c',
        author: 'bot',
        timestamp: first + 200,
        actions: {
          compaction: {
            startTimestamp: 0,
            endTimestamp: first + 100,
            compactedContent: { role: 'model', parts: [{ text: 'summary' }] },
          },
        },
      });
      check([], [deepFreeze(compaction)]);
    });

    it('a policy rejects the input of an earlier event', () => {
      check(
        [stored('user', { text: 'forbidden' }, { invocationId: 'rejected' })],
        [
          stored(
            'bot',
            { text: 'refused' },
            { invocationId: 'rejected', errorCode: INPUT_REJECTED_ERROR_CODE },
          ),
        ],
      );
    });
    it('a reused id is answered after a call the history leaves out', () => {
      // The failed call is not shown, so the answer replaces the earlier call's.
      check(
        [
          stored('bot', { functionCall: { id: 'x', name: 'f', args: {} } }),
          stored('user', { functionResponse: { id: 'x', name: 'f', response: { n: 1 } } }),
        ],
        [
          stored('bot', { functionCall: { id: 'x', name: 'f', args: {} } }, { errorCode: 'E' }),
          stored('user', { functionResponse: { id: 'x', name: 'f', response: { n: 2 } } }),
        ],
      );
    });

    it("a reused id is answered after a framework function's call", () => {
      check(
        [
          stored('bot', { functionCall: { id: 'x', name: 'f', args: {} } }),
          stored('user', { functionResponse: { id: 'x', name: 'f', response: { n: 1 } } }),
        ],
        [
          stored('bot', { functionCall: { id: 'x', name: 'adk_request_confirmation', args: {} } }),
          stored('user', { functionResponse: { id: 'x', name: 'f', response: { n: 2 } } }),
        ],
      );
    });

    it('an id used by an earlier increment is reused', () => {
      const events: Event[] = [];
      for (let turn = 0; turn < 30; turn++) events.push(stored('user', { text: `q${turn}` }));
      buildContentsIncrementally(events.slice(), { agentName: 'bot' });
      // The user answers another agent's call: relayed as context from that agent...
      events.push(
        stored('other', { functionCall: { id: 'x', name: 'f', args: {} } }),
        stored('user', { functionResponse: { id: 'x', name: 'f', response: {} } }),
      );
      buildContentsIncrementally(events.slice(), { agentName: 'bot' });
      // ...until a third agent reuses the id: the answer is then relayed from that agent.
      events.push(stored('third', { functionCall: { id: 'x', name: 'f', args: {} } }));
      expect(buildContentsIncrementally(events.slice(), { agentName: 'bot' })).toEqual(
        sentContents(events, { agentName: 'bot' }),
      );
    });
  });

  it('appends turns whose calls all reuse one id, as models numbering their calls per response do', () => {
    const events: Event[] = [];
    const add = (author: string, part: Part): number => events.push(stored(author, part));
    for (let turn = 0; turn < 30; turn++) add('user', { text: `q${turn}` });
    let previous = buildContentsIncrementally(events.slice(), { agentName: 'bot' });
    for (let turn = 0; turn < 10; turn++) {
      add('user', { text: `question ${turn}` });
      add('bot', { functionCall: { id: 'call-1', name: 'f', args: { turn } } });
      add('bot', { functionResponse: { id: 'call-1', name: 'f', response: { turn } } });
      for (const answer of [false, true]) {
        if (answer) add('bot', { text: `answer ${turn}` });
        const contents = buildContentsIncrementally(events.slice(), { agentName: 'bot' });
        expect(contents).toEqual(sentContents(events, { agentName: 'bot' }));
        // Appended to what was remembered, not rendered again from the first event.
        expect(contents[0]).toBe(previous[0]);
        previous = contents;
      }
    }
  });

  it('never reuses contents of events that were not frozen, or of another history', () => {
    const mutable = Array.from({ length: 30 }, (_, index) =>
      createEvent({
        invocationId: 'i',
        author: 'user',
        content: { role: 'user', parts: [{ text: `q${index}` }] },
      }),
    );
    buildContentsIncrementally(mutable.slice(), { agentName: 'bot' });
    (mutable[3]!.content!.parts[0] as Part).text = 'edited';
    expect(buildContentsIncrementally(mutable.slice(), { agentName: 'bot' })[3]).toEqual({
      role: 'user',
      parts: [{ text: 'edited' }],
    });

    const frozen = (text: string): Event =>
      deepFreeze(
        createEvent({
          invocationId: 'i',
          author: 'user',
          content: { role: 'user', parts: [{ text }] },
        }),
      );
    const shared = frozen('last');
    const one = [...Array.from({ length: 30 }, (_, index) => frozen(`one ${index}`)), shared];
    const two = [...Array.from({ length: 30 }, (_, index) => frozen(`two ${index}`)), shared];
    buildContentsIncrementally(one, { agentName: 'bot' });
    expect(buildContentsIncrementally(two, { agentName: 'bot' })).toEqual(
      sentContents(two, { agentName: 'bot' }),
    );
  });

  it('keeps the prefix of every session of a server taking turns in rotation', () => {
    // More sessions than the 32 prefixes it once kept: least-recently-used eviction then missed
    // on every turn of every session.
    const sessions = Array.from({ length: 100 }, (_, session) =>
      Array.from({ length: 30 }, (_, index) =>
        deepFreeze(
          createEvent({
            invocationId: `s${session}`,
            author: index % 2 === 0 ? 'user' : 'bot',
            content: {
              role: index % 2 === 0 ? 'user' : 'model',
              parts: [{ text: `s${session} t${index}` }],
            },
          }),
        ),
      ),
    );
    const first = sessions.map((events) =>
      buildContentsIncrementally(events, { agentName: 'bot' }),
    );
    for (const [session, events] of sessions.entries()) {
      events.push(
        deepFreeze(
          createEvent({
            invocationId: `s${session}`,
            author: 'user',
            content: { role: 'user', parts: [{ text: `s${session} next` }] },
          }),
        ),
      );
      const next = buildContentsIncrementally(events, { agentName: 'bot' });
      expect(next).toEqual(sentContents(events, { agentName: 'bot' }));
      // Reused, not rebuilt: the remembered contents are the very objects handed out before.
      expect(next[0]).toBe(first[session]![0]);
    }
  });

  it('still answers correctly for histories beyond what it remembers', () => {
    const events = Array.from({ length: 100_001 }, (_, index) =>
      deepFreeze(
        createEvent({
          invocationId: 'i',
          author: index % 2 === 0 ? 'user' : 'bot',
          content: { role: index % 2 === 0 ? 'user' : 'model', parts: [{ text: `t${index}` }] },
        }),
      ),
    );
    const expected = JSON.stringify(sentContents(events, { agentName: 'bot' }));
    for (let call = 0; call < 2; call++) {
      const contents = buildContentsIncrementally(events.slice(), { agentName: 'bot' });
      expect(JSON.stringify(contents) === expected).toBe(true);
    }
  });
});

describe('buildContentsIncrementally and frozen events', () => {
  const options: BuildContentsOptions = { agentName: 'bot' };
  const userEvent = (text: string, freeze: boolean): Event => {
    const event = createEvent({
      invocationId: 'i1',
      author: 'user',
      content: { role: 'user', parts: [{ text }] },
    });
    return freeze ? deepFreeze(event) : event;
  };

  it("shares a frozen event's parts (nothing can change them) and copies an unfrozen event's", () => {
    const frozen = userEvent('stored', true);
    const loose = userEvent('not stored', false);
    const contents = buildContentsIncrementally([frozen, loose], options);
    expect(contents).toEqual(sentContents([frozen, loose], options));
    expect(contents[0]?.parts[0]).toBe(frozen.content?.parts[0]);
    expect(contents[1]?.parts[0]).not.toBe(loose.content?.parts[0]);
    // The unfrozen event is left as it was: its part was copied before the contents were frozen.
    expect(Object.isFrozen(loose.content?.parts[0])).toBe(false);
    expect(Object.isFrozen(contents[1]?.parts[0])).toBe(true);
  });

  it('shares a frozen content rendered as it is, and builds one for everything else', () => {
    const stored = (init: Omit<Parameters<typeof createEvent>[0], 'invocationId'>): Event =>
      deepFreeze(createEvent({ invocationId: 'i1', ...init }));
    const call = stored({
      author: 'bot',
      content: { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'f', args: {} } }] },
    });
    const answer = stored({
      author: 'bot',
      content: {
        role: 'user',
        parts: [{ functionResponse: { id: 'c1', name: 'f', response: { ok: true } } }],
      },
    });
    const text = stored({ author: 'bot', content: { role: 'model', parts: [{ text: 'done' }] } });
    // Left out in part (an empty part), so its content cannot be the stored one.
    const trimmed = stored({
      author: 'user',
      content: { role: 'user', parts: [{ text: 'hi' }, { text: '' }] },
    });
    const noRole = stored({ author: 'bot', content: { parts: [{ text: 'no role' }] } as Content });
    const events = [userEvent('first', true), call, answer, text, trimmed, noRole];
    const contents = buildContentsIncrementally(events, options);
    expect(contents).toEqual(sentContents(events, options));
    expect(contents[0]).toBe(events[0]?.content);
    expect(contents[1]).toBe(call.content);
    // The answer holds exactly the call's responses in call order: its content is shared too.
    expect(contents[2]).toBe(answer.content);
    expect(contents[3]).toBe(text.content);
    expect(contents[4]).not.toBe(trimmed.content);
    expect(contents[4]?.parts).toEqual([{ text: 'hi' }]);
    expect(contents[5]).toEqual({ role: 'model', parts: [{ text: 'no role' }] });
    // The plain renderer shares nothing with the events.
    const plain = buildContents(events, options);
    expect(plain[0]).not.toBe(events[0]?.content);
    expect(plain[0]?.parts[0]).not.toBe(events[0]?.content?.parts[0]);
    expect(plain[2]?.parts[0]).not.toBe(answer.content?.parts[0]);
  });

  it('builds the answer turn in call order when the stored answers are split or reordered', () => {
    const stored = (author: string, content: Content): Event =>
      deepFreeze(createEvent({ invocationId: 'i1', author, content }));
    const response = (id: string): Part => ({
      functionResponse: { id, name: 'f', response: { id } },
    });
    const calls = stored('bot', {
      role: 'model',
      parts: [
        { functionCall: { id: 'a', name: 'f', args: {} } },
        { functionCall: { id: 'b', name: 'f', args: {} } },
      ],
    });
    const reversed = stored('bot', { role: 'user', parts: [response('b'), response('a')] });
    const first = stored('bot', { role: 'user', parts: [response('a')] });
    const second = stored('bot', { role: 'user', parts: [response('b')] });
    // A response part carrying more than its response is rebuilt without it, as before.
    const signed = stored('bot', {
      role: 'user',
      parts: [
        { ...response('a'), thoughtSignature: 'sig' },
        { ...response('b'), thoughtSignature: 'sig' },
      ],
    });
    for (const answers of [[reversed], [first, second], [signed]]) {
      const events = [userEvent('go', true), calls, ...answers];
      const contents = buildContentsIncrementally(events, options);
      expect(contents).toEqual(sentContents(events, options));
      const built = contents[2]!;
      expect(answers.some((answer) => answer.content === built)).toBe(false);
      expect(built.parts.map((part) => part.functionResponse?.id)).toEqual(['a', 'b']);
      // Each response part is the stored one, unless it carries more than its response.
      const storedParts = answers.flatMap((answer) => answer.content?.parts ?? []);
      for (const part of built.parts) {
        if (answers[0] === signed)
          expect(part).toEqual({ functionResponse: part.functionResponse });
        else expect(storedParts).toContain(part);
      }
    }
  });

  it('gives editable copies to code that changes a request, leaving frozen events intact', () => {
    const frozen = userEvent('stored', true);
    const editable = mutableContents(buildContentsIncrementally([frozen], options));
    (editable[0]?.parts[0] as Part).text = 'edited';
    expect(frozen.content?.parts[0]?.text).toBe('stored');
  });
});
