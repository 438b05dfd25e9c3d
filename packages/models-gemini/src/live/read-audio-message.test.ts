import { PlainBlob, plainBlobOf } from '@adk/core';
import { describe, expect, it } from 'vitest';

import { LiveResponseReader } from './live-response-reader';
import { readAudioMessage } from './read-audio-message';

const data = Buffer.from(Array.from({ length: 960 }, (_, i) => (i * 37) & 255)).toString('base64');
const MIME = 'audio/pcm;rate=24000';
const audio = {
  serverContent: { modelTurn: { parts: [{ inlineData: { mimeType: MIME, data } }] } },
};

/** What the JSON path gives for a frame: the reader's responses of the parsed message. */
function parsed(frame: string) {
  return new LiveResponseReader().read(JSON.parse(frame));
}

describe('readAudioMessage', () => {
  it.each([
    ['compact', JSON.stringify(audio)],
    ['indented', JSON.stringify(audio, null, 2)],
    ['with CRLF and tabs', JSON.stringify(audio, null, '\t').replaceAll('\n', '\r\n')],
    [
      'with the members reversed',
      JSON.stringify({
        serverContent: { modelTurn: { parts: [{ inlineData: { data, mimeType: MIME } }] } },
      }),
    ],
  ])('reads an audio-only message (%s) as the JSON path does, as a PlainBlob', (_, frame) => {
    const blob = readAudioMessage(Buffer.from(frame));
    expect(blob).toBeInstanceOf(PlainBlob);
    expect(plainBlobOf(blob!)).toBe(blob);
    expect([{ content: { role: 'model', parts: [{ inlineData: blob }] }, partial: true }]).toEqual(
      parsed(frame),
    );
  });

  it.each([
    ['another message', JSON.stringify({ serverContent: { turnComplete: true } })],
    ['usage beside the audio', JSON.stringify({ ...audio, usageMetadata: { totalTokenCount: 3 } })],
    [
      'a second part',
      JSON.stringify({
        serverContent: {
          modelTurn: { parts: [{ inlineData: { mimeType: MIME, data } }, { text: 'hi' }] },
        },
      }),
    ],
    [
      'a transcription beside the audio',
      JSON.stringify({
        serverContent: { ...audio.serverContent, outputTranscription: { text: 'hi' } },
      }),
    ],
    [
      'a role in the turn',
      JSON.stringify({
        serverContent: {
          modelTurn: { role: 'model', parts: [{ inlineData: { mimeType: MIME, data } }] },
        },
      }),
    ],
    ['an escaped slash in the data', JSON.stringify(audio).replace('/', '\\/')],
    ['an escape in the mime type', JSON.stringify(audio).replace('audio/pcm', 'audio\\/pcm')],
    ['data that is not base64', JSON.stringify(audio).replace(data, 'not base64!')],
    ['a mime type outside ASCII', JSON.stringify(audio).replace('audio', 'audi\u00f6')],
    ['trailing text', `${JSON.stringify(audio)} x`],
    ['a missing member', JSON.stringify(audio).replace(`"mimeType":"${MIME}",`, '')],
    ['a repeated member', JSON.stringify(audio).replace('"mimeType"', '"data"')],
  ])('leaves %s to the JSON path', (_, frame) => {
    expect(readAudioMessage(Buffer.from(frame))).toBeUndefined();
  });

  it('reads each chunk its own mime type, whatever the previous chunk had', () => {
    const frameOf = (mimeType: string) =>
      Buffer.from(
        JSON.stringify(audio).replace(`"mimeType":"${MIME}"`, `"mimeType":"${mimeType}"`),
      );
    const sequence = [
      MIME,
      MIME,
      'audio/pcm;rate=16000',
      'audio/pcm;rate=24000',
      'audio/pcm;rate=24001',
      'audio/wav',
      MIME,
    ];
    for (const mimeType of sequence) {
      expect(readAudioMessage(frameOf(mimeType))?.mimeType).toBe(mimeType);
    }
    // A mime type of the same length as the last one, but with an escape or a byte outside
    // ASCII, still goes to the JSON path.
    expect(readAudioMessage(frameOf(MIME))?.mimeType).toBe(MIME);
    expect(readAudioMessage(frameOf('audio\\/pcm;rate=2400'))).toBeUndefined();
    expect(readAudioMessage(frameOf(MIME))?.mimeType).toBe(MIME);
    const latin = Buffer.from(frameOf(MIME));
    latin[latin.indexOf('audio')] = 0xe1;
    expect(readAudioMessage(latin)).toBeUndefined();
    expect(readAudioMessage(frameOf(MIME))?.mimeType).toBe(MIME);
  });

  it('leaves malformed frames to the JSON path (which reports them)', () => {
    const whole = JSON.stringify(audio);
    for (const frame of [
      '{"serverContent": {"modelTurn": ',
      whole.slice(0, -1),
      whole.slice(0, whole.indexOf(data) + 10),
      whole.replace(data.slice(0, 8), `${data.slice(0, 4)}\u0001${data.slice(5, 8)}`),
      '',
    ]) {
      expect(readAudioMessage(Buffer.from(frame))).toBeUndefined();
    }
  });
});
