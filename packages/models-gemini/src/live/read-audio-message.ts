import { isAscii } from 'node:buffer';

import { PlainBlob } from '@adk/core';

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
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;

/**
 * The blob of a Live API server message that is one audio (or other inline data) chunk of the
 * model's turn and nothing else, read from the frame's bytes without `JSON.parse`, as a
 * `PlainBlob` that keeps its data's bytes (a view of the frame) for the server to write:
 * `{"serverContent":{"modelTurn":{"parts":[{"inlineData":{"mimeType":"…","data":"…"}}]}}}`
 * (JSON whitespace anywhere, the two members in either order).
 *
 * `undefined` for any other message, and whenever the fast reading is not certain to agree with
 * `JSON.parse`: another member anywhere, an escape sequence or a character outside printable
 * ASCII in either string, data that is not padded base64 (or longer than 0.5 s of audio). The caller then parses the frame as JSON (which also reports a
 * malformed frame). While the model speaks nearly every frame is such a chunk; reading it this
 * way saves decoding the frame to a string and building then copying its object tree.
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
  let bytes: Buffer | undefined;
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
    const end = plainStringEnd(frame, start);
    if (end < 0) return undefined;
    const value = frame.toString('latin1', start, end);
    if (isData) {
      if (data !== undefined || !isBase64(value)) return undefined;
      data = value;
      bytes = frame.subarray(start, end);
    } else {
      if (mimeType !== undefined || !isPrintable(value)) return undefined;
      mimeType = value;
    }
    at = end + 1;
  }
  if (!(frame.length - at === COMPACT_CLOSING.length && COMPACT_CLOSING.compare(frame, at) === 0)) {
    at = expectAll(frame, at, CLOSING);
    if (at < 0 || skipSpace(frame, at) !== frame.length) return undefined;
  }
  return new PlainBlob(mimeType!, data!, bytes);
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

/**
 * The index of the quote that closes the string starting at `start` when the string is printable
 * ASCII without a backslash, else -1. Checked natively (`isAscii`, `indexOf`); control characters
 * are checked by the data's base64 decoding ({@link isBase64}), the mime type's by a loop.
 */
function plainStringEnd(frame: Buffer, start: number): number {
  const end = frame.indexOf(QUOTE, start);
  if (end < 0) return -1;
  const backslash = frame.indexOf(BACKSLASH, start);
  if (backslash >= 0 && backslash < end) return -1;
  return isAscii(frame.subarray(start, end)) ? end : -1;
}

function isPrintable(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}

/** Scratch space of {@link isBase64}: 24 KB of audio (0.5 s at 24 kHz); longer data is parsed. */
const SCRATCH = Buffer.allocUnsafe(24 * 1024);

/**
 * Whether `text` is padded base64 (Node's alphabet, `-` and `_` included): decoding skips any
 * other character (a control character, a space) or stops at an `=` inside, and then yields
 * fewer bytes than the length promises. Natively, at a fraction of a byte loop's cost.
 */
function isBase64(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  const expected = Buffer.byteLength(text, 'base64');
  return expected <= SCRATCH.length && SCRATCH.write(text, 0, 'base64') === expected;
}
