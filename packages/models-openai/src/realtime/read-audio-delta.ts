import { PlainBlob } from '@adk/core';
import { isVerbatimJsonText } from '@adk/model-http';

import type { RealtimeServerEvent } from './realtime-wire';

/** What {@link readAudioDelta} reads: the event's members, and its audio as a checked blob. */
export interface AudioDelta {
  event: RealtimeServerEvent;
  blob: PlainBlob;
}

const QUOTE = 0x22;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const ZERO = 0x30;
const NINE = 0x39;

const AUDIO_DELTA = 'response.output_audio.delta';
/** `{"type":"response.output_audio.delta"`: the frame's opening as the service writes it. */
const COMPACT_OPENING = Buffer.from(`{"type":"${AUDIO_DELTA}"`, 'latin1');
/** The type as a JSON string: a frame without it is no audio delta. */
const AUDIO_DELTA_TYPE = Buffer.from(`"${AUDIO_DELTA}"`, 'latin1');

/**
 * The members of a `response.output_audio.delta` server event, read from the frame's bytes
 * without decoding it to a string and `JSON.parse`-ing it, with its audio as a `PlainBlob` of
 * `mimeType` (checked once here; the server then writes the chunk without scanning it again):
 * `{"type":"response.output_audio.delta","event_id":"…","response_id":"…","item_id":"…",
 * "output_index":0,"content_index":0,"delta":"…"}` (those members only, in any order, each at
 * most once, JSON whitespace anywhere; the type first, as the service writes it, is compared
 * natively).
 *
 * `undefined` for any other frame, and whenever the reading is not certain to agree with
 * `JSON.parse`: another member, a duplicate, a string with an escape sequence or a character
 * outside printable ASCII, a number that is not a plain non-negative integer, a delta that is not
 * padded base64 (or longer than 0.5 s of audio). The caller then parses the frame as JSON (which
 * also reports a malformed frame). While the model speaks nearly every frame is such a delta.
 */
export function readAudioDelta(frame: Buffer, mimeType: string): AudioDelta | undefined {
  // One byte a character: any byte outside ASCII becomes a character that nothing below accepts.
  let text: string;
  let at: number;
  let type: string | undefined;
  if (
    frame.length > COMPACT_OPENING.length &&
    COMPACT_OPENING.compare(frame, 0, COMPACT_OPENING.length) === 0
  ) {
    // The type first, as the service writes it: compared natively.
    text = frame.toString('latin1');
    at = COMPACT_OPENING.length;
    type = AUDIO_DELTA;
  } else {
    if (frame.indexOf(AUDIO_DELTA_TYPE) < 0) return undefined;
    text = frame.toString('latin1');
    at = skipSpace(text, 0);
    if (text.charCodeAt(at) !== OPEN_BRACE) return undefined;
    at++;
  }
  // After the compact opening the first member is read; else the first member has no comma.
  let first = type === undefined;
  let eventId: string | undefined;
  let responseId: string | undefined;
  let itemId: string | undefined;
  let outputIndex = -1;
  let contentIndex = -1;
  let blob: PlainBlob | undefined;
  for (;;) {
    at = skipSpace(text, at);
    if (first) {
      first = false;
    } else {
      if (text.charCodeAt(at) === CLOSE_BRACE) break;
      if (text.charCodeAt(at) !== COMMA) return undefined;
      at = skipSpace(text, at + 1);
    }
    if (text.charCodeAt(at) !== QUOTE) return undefined;
    const keyEnd = text.indexOf('"', at + 1);
    if (keyEnd < 0) return undefined;
    // Any key but the seven (an escaped one included) is not read here.
    const key = text.slice(at + 1, keyEnd);
    at = skipSpace(text, keyEnd + 1);
    if (text.charCodeAt(at) !== COLON) return undefined;
    at = skipSpace(text, at + 1);
    if (key === 'output_index' || key === 'content_index') {
      let value = 0;
      let end = at;
      for (let code = text.charCodeAt(end); code >= ZERO && code <= NINE;) {
        value = value * 10 + (code - ZERO);
        code = text.charCodeAt(++end);
      }
      // A plain non-negative integer: `0`, or at most 9 digits not led by `0`.
      if (end === at || end - at > 9 || (end - at > 1 && text.charCodeAt(at) === ZERO)) {
        return undefined;
      }
      if (key === 'output_index') {
        if (outputIndex >= 0) return undefined;
        outputIndex = value;
      } else {
        if (contentIndex >= 0) return undefined;
        contentIndex = value;
      }
      at = end;
      continue;
    }
    if (text.charCodeAt(at) !== QUOTE) return undefined;
    const end = text.indexOf('"', at + 1);
    if (end < 0) return undefined;
    const value = text.slice(at + 1, end);
    at = end + 1;
    if (key === 'delta') {
      if (blob !== undefined) return undefined;
      // Base64 holds no escape, quote or character outside ASCII: the text is the value.
      const checked = PlainBlob.of(mimeType, value);
      if (!(checked instanceof PlainBlob)) return undefined;
      blob = checked;
      continue;
    }
    if (!isVerbatimJsonText(value)) return undefined;
    switch (key) {
      case 'type':
        if (type !== undefined || value !== AUDIO_DELTA) return undefined;
        type = value;
        break;
      case 'event_id':
        if (eventId !== undefined) return undefined;
        eventId = value;
        break;
      case 'response_id':
        if (responseId !== undefined) return undefined;
        responseId = value;
        break;
      case 'item_id':
        if (itemId !== undefined) return undefined;
        itemId = value;
        break;
      default:
        return undefined;
    }
  }
  if (skipSpace(text, at + 1) !== text.length || type === undefined || blob === undefined) {
    return undefined;
  }
  const event: RealtimeServerEvent = { type: AUDIO_DELTA, delta: blob.data };
  if (eventId !== undefined) event.event_id = eventId;
  if (responseId !== undefined) event.response_id = responseId;
  if (itemId !== undefined) event.item_id = itemId;
  if (contentIndex >= 0) event.content_index = contentIndex;
  return { event, blob };
}

function skipSpace(text: string, at: number): number {
  let index = at;
  for (;;) {
    const code = text.charCodeAt(index);
    // JSON whitespace: space, tab, line feed, carriage return.
    if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return index;
    index++;
  }
}
