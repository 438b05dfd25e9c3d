import { PlainBlob, plainBlobOf } from '@adk/core';
import { describe, expect, it } from 'vitest';

import { REALTIME_OUTPUT_AUDIO_MIME_TYPE, RealtimeEventMapper } from '../src/realtime';
import { readAudioDelta } from '../src/realtime/read-audio-delta';
import type { RealtimeServerEvent } from '../src/realtime/realtime-wire';

const delta = Buffer.from(Array.from({ length: 960 }, (_, i) => (i * 37) & 255)).toString('base64');
const audio = {
  type: 'response.output_audio.delta',
  event_id: 'event_CAbc1',
  response_id: 'resp_1',
  item_id: 'item_1',
  output_index: 0,
  content_index: 2,
  delta,
};

const { event_id: _id, ...withoutId } = audio;

const read = (frame: string) => readAudioDelta(Buffer.from(frame), REALTIME_OUTPUT_AUDIO_MIME_TYPE);

/** A mapper at a fixed clock: the JSON path's and the reader's give the same responses. */
const mapper = () =>
  new RealtimeEventMapper({ outputTranscription: true, interrupts: true, now: () => 1000 });

describe('readAudioDelta', () => {
  it.each([
    ['compact, as the service writes it', JSON.stringify(audio)],
    [
      'with whitespace between the members',
      `{"type":"response.output_audio.delta" ,\n\t"event_id" : "event_CAbc1",\r\n"response_id":"resp_1",` +
        ` "item_id":"item_1" , "output_index": 0,"content_index" :2,"delta":\n"${delta}"\n}`,
    ],
    [
      'with the members after the type in another order',
      JSON.stringify({
        type: audio.type,
        delta,
        content_index: 2,
        item_id: 'item_1',
        output_index: 17,
        response_id: 'resp_1',
        event_id: 'event_CAbc1',
      }),
    ],
    ['with a nine-digit index', JSON.stringify({ ...audio, content_index: 123456789 })],
    ['with the type not first', JSON.stringify({ event_id: 'e', ...withoutId })],
    [
      'with the type last',
      JSON.stringify({ ...audio, type: undefined }).replace(
        '}',
        ',"type":"response.output_audio.delta"}',
      ),
    ],
    ['with whitespace before the type', ` {\n "type" : ${JSON.stringify(audio).slice(8)}`],
  ])('reads an audio delta (%s) as JSON.parse does, its audio a PlainBlob', (_, frame) => {
    const outcome = read(frame);
    expect(outcome).toBeDefined();
    const parsed = JSON.parse(frame) as RealtimeServerEvent & { output_index?: number };
    const { output_index: _index, ...members } = parsed;
    expect(outcome!.event).toEqual(members);
    expect(outcome!.blob).toBeInstanceOf(PlainBlob);
    expect(plainBlobOf(outcome!.blob)).toBe(outcome!.blob);
    expect(outcome!.blob).toEqual({ mimeType: REALTIME_OUTPUT_AUDIO_MIME_TYPE, data: delta });
    // The mapper's responses are those of the parsed frame, with the reader's blob in them.
    const fast = mapper().map(outcome!.event, outcome!.blob);
    expect(fast).toEqual(mapper().map(parsed));
    expect(fast.responses[0]?.content?.parts?.[0]?.inlineData).toBe(outcome!.blob);
  });

  it.each([
    ['no item id', { type: audio.type, delta }],
    ['an empty delta', { ...audio, delta: '' }],
  ])('reads a delta with %s, which the mapper then ignores as on the JSON path', (_, event) => {
    const frame = JSON.stringify(event);
    const outcome = read(frame);
    expect(outcome).toBeDefined();
    const mapped = mapper().map(outcome!.event, outcome!.blob);
    expect(mapped).toEqual({ responses: [], send: [] });
    expect(mapped).toEqual(mapper().map(JSON.parse(frame)));
  });

  it.each([
    ['another event', JSON.stringify({ ...audio, type: 'response.output_text.delta' })],
    [
      'another event, the type not first',
      JSON.stringify({ event_id: 'e', ...withoutId, type: 'x' }),
    ],
    ['a frame that is not an object', `[${JSON.stringify(audio)}]`],
    ['a second type', JSON.stringify(audio).replace('}', ',"type":"response.done"}')],
    ['another member', JSON.stringify({ ...audio, obfuscation: 'x' })],
    ['another member before the type', JSON.stringify({ obfuscation: 'x', ...audio })],
    ['no type', JSON.stringify({ ...audio, type: undefined, note: audio.type })],
    ['a duplicate member', JSON.stringify(audio).replace('}', ',"item_id":"item_2"}')],
    ['a duplicate delta', JSON.stringify(audio).replace('}', `,"delta":"${delta}"}`)],
    ['a duplicate index', JSON.stringify(audio).replace('}', ',"content_index":1}')],
    ['an escaped key', JSON.stringify(audio).replace('"item_id"', '"item\\u005fid"')],
    ['an escape in an id', JSON.stringify({ ...audio, item_id: 'item"1' })],
    ['a character outside ASCII in an id', JSON.stringify({ ...audio, item_id: 'itém' })],
    [
      'an index with a fraction',
      JSON.stringify(audio).replace('"content_index":2', '"content_index":2.5'),
    ],
    [
      'an index with an exponent',
      JSON.stringify(audio).replace('"content_index":2', '"content_index":2e1'),
    ],
    ['a negative index', JSON.stringify({ ...audio, content_index: -1 })],
    [
      'an index led by zero',
      JSON.stringify(audio).replace('"content_index":2', '"content_index":02'),
    ],
    ['an index of ten digits', JSON.stringify({ ...audio, content_index: 1234567890 })],
    ['an index as a string', JSON.stringify({ ...audio, content_index: '2' })],
    ['an id that is not a string', JSON.stringify({ ...audio, item_id: null })],
    ['a delta that is not base64', JSON.stringify({ ...audio, delta: 'not base64!' })],
    ['an unpadded delta', JSON.stringify({ ...audio, delta: delta.slice(0, -2) })],
    [
      'an escape in the delta',
      JSON.stringify({ ...audio, delta: `${delta.slice(0, 8)}\\u0041${delta.slice(8)}` }),
    ],
    ['no delta', JSON.stringify({ ...audio, delta: undefined })],
    ['text after the object', `${JSON.stringify(audio)} x`],
    ['a second object', `${JSON.stringify(audio)}{}`],
    ['a missing brace', JSON.stringify(audio).slice(0, -1)],
    ['a cut frame', JSON.stringify(audio).slice(0, 200)],
    ['a trailing comma', JSON.stringify(audio).replace(/}$/, ',}')],
    ['the type alone, unclosed', '{"type":"response.output_audio.delta"'],
  ])('leaves %s to JSON.parse', (_, frame) => {
    expect(read(frame)).toBeUndefined();
  });

  it('has the mapper check a delta again when the blob given is not of that delta', () => {
    const { event } = read(JSON.stringify(audio))!;
    const other = PlainBlob.of(REALTIME_OUTPUT_AUDIO_MIME_TYPE, 'AAAA') as PlainBlob;
    const wrongType = PlainBlob.of('audio/pcm;rate=16000', delta) as PlainBlob;
    for (const given of [other, wrongType]) {
      const blob = mapper().map(event, given).responses[0]?.content?.parts?.[0]?.inlineData;
      expect(blob).not.toBe(given);
      expect(blob).toBeInstanceOf(PlainBlob);
      expect(blob).toEqual({ mimeType: REALTIME_OUTPUT_AUDIO_MIME_TYPE, data: delta });
    }
  });

  it('accepts whitespace after the object, as JSON.parse does', () => {
    expect(read(`${JSON.stringify(audio)} \r\n\t`)?.event.item_id).toBe('item_1');
  });

  it('reads bytes outside ASCII in the delta as a frame to parse, not as base64', () => {
    const frame = Buffer.concat([
      Buffer.from(JSON.stringify({ ...audio, delta: 'AAAA' }).slice(0, -6)),
      Buffer.from([0xc3, 0xa9]),
      Buffer.from('AA"}'),
    ]);
    expect(readAudioDelta(frame, REALTIME_OUTPUT_AUDIO_MIME_TYPE)).toBeUndefined();
  });
});
