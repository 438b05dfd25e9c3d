import { PlainBlob } from '@adk/core';
import { isVerbatimJsonText } from '@adk/model-http';

/**
 * The tokens of a server message that carries one inline blob and nothing else, in order, up to
 * the blob's members: `{"serverContent":{"modelTurn":{"parts":[{"inlineData":{`.
 */
const OPENING = [
  ...['{', '"serverContent"', ':', '{', '"modelTurn"', ':', '{', '"parts"', ':', '['],
  ...['{', '"inlineData"', ':', '{'],
].map((token) => Buffer.from(token, 'latin1'));
/** The tokens after the blob's members: `}}]}}}`. */
const CLOSING = ['}', '}', ']', '}', '}', '}'].map((token) => Buffer.from(token, 'latin1'));
/** The same without whitespace, as most services write it: compared natively first. */
const COMPACT_OPENING = Buffer.concat(OPENING);
const COMPACT_CLOSING = Buffer.concat(CLOSING);
const MIME_TYPE = Buffer.from('"mimeType"', 'latin1');
const DATA = Buffer.from('"data"', 'latin1');

const QUOTE = 0x22;
const COLON = 0x3a;
const COMMA = 0x2c;

/**
 * The blob of a Live API server message that is one audio (or other inline data) chunk of the
 * model's turn and nothing else, read from the frame's bytes without `JSON.parse`, as a
 * `PlainBlob` (the server then writes it without scanning the data again):
 * `{"serverContent":{"modelTurn":{"parts":[{"inlineData":{"mimeType":"…","data":"…"}}]}}}`
 * (JSON whitespace anywhere, the two members in either order).
 *
 * `undefined` for any other message, and whenever the fast reading is not certain to agree with
 * `JSON.parse`: another member anywhere, an escape sequence or a character outside printable
 * ASCII in the mime type, data that is not padded base64 (or longer than 0.5 s of audio). The
 * caller then parses the frame as JSON (which also reports a malformed frame). While the model
 * speaks nearly every frame is such a chunk; reading it this way saves decoding the whole frame
 * to a string and building, then copying, its object tree.
 */
export function readAudioMessage(frame: Buffer): PlainBlob | undefined {
  let at =
    frame.length > COMPACT_OPENING.length &&
    COMPACT_OPENING.compare(frame, 0, COMPACT_OPENING.length) === 0
      ? COMPACT_OPENING.length
      : expectAll(frame, 0, OPENING);
  if (at < 0) return undefined;
  let mimeType: string | undefined;
  let data: string | undefined;
  for (let member = 0; member < 2; member++) {
    if (member === 1) {
      at = skipSpace(frame, at);
      if (frame[at] !== COMMA) return undefined;
      at++;
    }
    at = skipSpace(frame, at);
    const isData = startsWith(frame, at, DATA);
    if (!isData && !startsWith(frame, at, MIME_TYPE)) return undefined;
    at = skipSpace(frame, at + (isData ? DATA.length : MIME_TYPE.length));
    if (frame[at] !== COLON) return undefined;
    at = skipSpace(frame, at + 1);
    if (frame[at] !== QUOTE) return undefined;
    const start = at + 1;
    const end = frame.indexOf(QUOTE, start);
    if (end < 0) return undefined;
    // Checked: base64 for the data (escapes and anything else are not base64, see below),
    // printable ASCII without a backslash for the mime type.
    if (isData) {
      if (data !== undefined) return undefined;
      data = frame.toString('latin1', start, end);
    } else {
      if (mimeType !== undefined) return undefined;
      mimeType = mimeTypeOf(frame, start, end);
      if (mimeType === undefined) return undefined;
    }
    at = end + 1;
  }
  if (!(frame.length - at === COMPACT_CLOSING.length && COMPACT_CLOSING.compare(frame, at) === 0)) {
    at = expectAll(frame, at, CLOSING);
    if (at < 0 || skipSpace(frame, at) !== frame.length) return undefined;
  }
  const blob = PlainBlob.of(mimeType!, data!);
  return blob instanceof PlainBlob ? blob : undefined;
}

/** The bytes and the text of the last mime type read (the same in every chunk of a stream). */
let lastMimeBytes = Buffer.alloc(0);
let lastMimeType = '';

/**
 * The mime type whose bytes are `frame[start, end)` when they are printable ASCII without a
 * backslash (its JSON text is then its value), else `undefined`. The text of the previous chunk's
 * is reused when the bytes are the same: compared here byte by byte, cheaper for these few bytes
 * than a native call to decode them.
 */
function mimeTypeOf(frame: Buffer, start: number, end: number): string | undefined {
  const length = end - start;
  const last = lastMimeBytes;
  if (length === last.length) {
    let index = 0;
    while (index < length && frame[start + index] === last[index]) index++;
    if (index === length) return lastMimeType;
  }
  const value = frame.toString('latin1', start, end);
  if (!isVerbatimJsonText(value)) return undefined;
  lastMimeBytes = Buffer.from(frame.subarray(start, end));
  lastMimeType = value;
  return value;
}

/** Where the last of `tokens` ends when they follow one another from `at`, else -1. */
function expectAll(frame: Buffer, at: number, tokens: readonly Buffer[]): number {
  let next = at;
  for (const token of tokens) {
    next = expect(frame, next, token);
    if (next < 0) return -1;
  }
  return next;
}

/** Where `token` ends when it follows (after whitespace) at `at`, else -1. */
function expect(frame: Buffer, at: number, token: Buffer): number {
  const start = skipSpace(frame, at);
  return startsWith(frame, start, token) ? start + token.length : -1;
}

function startsWith(frame: Buffer, at: number, token: Buffer): boolean {
  if (at + token.length > frame.length) return false;
  for (let index = 0; index < token.length; index++) {
    if (frame[at + index] !== token[index]) return false;
  }
  return true;
}

function skipSpace(frame: Buffer, at: number): number {
  let index = at;
  for (;;) {
    const byte = frame[index];
    // JSON whitespace: space, tab, line feed, carriage return.
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return index;
    index++;
  }
}
