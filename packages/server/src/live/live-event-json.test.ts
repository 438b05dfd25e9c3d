import { createEvent, PlainBlob, type Event } from '@adk/core';
import { describe, expect, it } from 'vitest';

import { liveEventFrame, liveEventJson } from './live-event-json';

const data = Buffer.from(Array.from({ length: 960 }, (_, i) => (i * 37) & 255)).toString('base64');
const plain = (mimeType = 'audio/pcm;rate=24000', value = data) => PlainBlob.of(mimeType, value);
const chunk = (init: Partial<Event> = {}, parts = [{ inlineData: plain() }]): Event =>
  createEvent({
    invocationId: 'e-1',
    author: 'voice',
    partial: true,
    content: { role: 'model', parts },
    ...init,
  });

function framed(event: Event): string {
  const frame = liveEventFrame(event);
  return typeof frame === 'string' ? frame : frame.toString('utf8');
}

describe('liveEventFrame', () => {
  it('writes an audio chunk as bytes equal to JSON.stringify of the event', () => {
    const event = chunk();
    const frame = liveEventFrame(event);
    expect(Buffer.isBuffer(frame)).toBe(true);
    expect(framed(event)).toBe(JSON.stringify(event));
    expect(liveEventJson(event)).toBe(JSON.stringify(event));
  });

  it.each<[string, () => Event]>([
    ['a branch and non-ASCII text around', () => chunk({ branch: 'voix.é', author: 'agent 🎙' })],
    [
      'two plain blobs and a text part',
      () =>
        chunk({}, [
          { inlineData: plain() },
          { text: 'say "hi"\n' } as never,
          { inlineData: plain('audio/pcm;rate=16000', 'AAECAw==') },
        ]),
    ],
    [
      'members set to undefined',
      () => {
        const event = chunk();
        (event as unknown as Record<string, unknown>).modelVersion = undefined;
        (event.content!.parts[0] as Record<string, unknown>).thought = undefined;
        return event;
      },
    ],
    [
      'a display name on the blob',
      () => {
        const event = chunk();
        event.content!.parts[0]!.inlineData!.displayName = 'chunk "1"';
        return event;
      },
    ],
    [
      'a blob whose data was replaced',
      () => {
        const event = chunk();
        event.content!.parts[0]!.inlineData!.data = 'a "quoted" \u0001 value';
        return event;
      },
    ],
    ['a copied (no longer plain) blob', () => chunk({}, [{ inlineData: { ...plain() } }])],
    [
      'custom metadata and a fractional timestamp',
      () =>
        chunk({ customMetadata: { note: 'ü', n: 1.5, nested: { content: 0 } }, timestamp: 1.25 }),
    ],
    ['an event that is not partial', () => chunk({ partial: false })],
    [
      'a part with toJSON',
      () => chunk({}, [{ inlineData: plain(), toJSON: () => ({ replaced: true }) } as never]),
    ],
    [
      'a timestamp in seconds (as the wire-time copy makes it)',
      () => {
        const event = chunk();
        return { ...event, timestamp: event.timestamp / 1000 };
      },
    ],
    [
      'strings JSON escapes (a quote, a backslash, a control character, a lone surrogate)',
      () =>
        chunk({
          author: 'say "hi" \\ \u0007',
          invocationId: 'e-\ud800-x',
          branch: 'a\u2028b\u007f',
        }),
    ],
    [
      'actions with members (a state change, a nested map, a flag)',
      () =>
        chunk({
          actions: {
            stateDelta: { mood: 'calm' },
            artifactDelta: {},
            requestedToolConfirmations: {},
            skipSummarization: true,
          },
        }),
    ],
    [
      'actions whose maps are empty but one is not a plain object',
      () => {
        const event = chunk();
        (event.actions as unknown as Record<string, unknown>).stateDelta = new Map();
        (event.actions as unknown as Record<string, unknown>).artifactDelta = [];
        return event;
      },
    ],
    [
      'actions with an inherited member',
      () => {
        const actions = Object.create({ inherited: {} }) as Record<string, unknown>;
        actions.stateDelta = {};
        return { ...chunk(), actions } as unknown as Event;
      },
    ],
    [
      'actions with a toJSON map',
      () => {
        const actions: Record<string, unknown> = { stateDelta: { toJSON: () => ({ n: 1 }) } };
        return { ...chunk(), actions } as unknown as Event;
      },
    ],
    [
      'a null member and an empty object member',
      () => chunk({ customMetadata: {}, errorMessage: null as never }),
    ],
    ['an id with characters outside ASCII', () => chunk({ id: 'id-é-🎙-"x"' })],
    ['an ASCII id with a quote', () => chunk({ id: 'id-"x"' })],
    ['an ASCII id with a backslash', () => chunk({ id: 'id-\\x' })],
    ['an ASCII id with a control character and a DEL', () => chunk({ id: 'id-\u0001\u007f' })],
    ['an empty id', () => chunk({ id: '' })],
    [
      'a role other than model',
      () => chunk({ content: { role: 'user', parts: [{ inlineData: plain() }] } }),
    ],
    [
      'the members in another order',
      () => {
        const { content, ...rest } = chunk();
        return { content, ...rest } as Event;
      },
    ],
    [
      'a content with another member',
      () => {
        const event = chunk();
        (event.content as unknown as Record<string, unknown>).extra = 1;
        return event;
      },
    ],
    ['a blob with fewer parts than one', () => chunk({}, [])],
    [
      'default actions on another prototype',
      () => {
        const event = chunk();
        Object.setPrototypeOf(event.actions.stateDelta, { inherited: 1 });
        return event;
      },
    ],
    ['a non-finite timestamp', () => chunk({ timestamp: Number.NaN })],
  ])('gives exactly JSON.stringify for %s', (_, make) => {
    const event = make();
    expect(framed(event)).toBe(JSON.stringify(event));
  });

  it('writes each chunk from its own head when consecutive chunks differ in what the head holds', () => {
    const events = [
      chunk(),
      chunk(),
      chunk({ invocationId: 'e-2' }),
      chunk({ invocationId: 'e-2', author: 'other' }),
      chunk({ invocationId: 'e-2', author: 'other', branch: 'a.b' }),
      chunk({ invocationId: 'e-2', author: 'other', branch: 'a.c' }),
      chunk({ invocationId: 'e-2', author: 'other' }),
      chunk({}, [{ inlineData: plain('audio/pcm;rate=16000') }]),
      chunk({ content: { role: 'user', parts: [{ inlineData: plain() }] } }),
      chunk({ timestamp: 1.5 }),
      chunk(),
    ];
    for (const event of events) {
      const frame = liveEventFrame(event);
      expect(Buffer.isBuffer(frame)).toBe(true);
      expect(framed(event)).toBe(JSON.stringify(event));
    }
  });
});
