import { plainBlobOf, type Blob, type Event } from '@adk/core';

/**
 * The frame of an event for the `/run_live` socket: the UTF-8 bytes (or the text) of exactly
 * `JSON.stringify(event)`. Written faster for a partial event whose content carries a blob that a
 * live connection made plain (a `PlainBlob`: an audio chunk's base64, checked once by the
 * connection): its data, about 1.3 KB per 20 ms chunk, is neither scanned for characters to
 * escape nor encoded, but copied into the frame's bytes as it is (no text of the whole frame is
 * made). Everything else is `JSON.stringify`'s own work.
 */
export function liveEventFrame(event: Event): string | Buffer {
  if (!event.partial || !hasPlainBlob(event)) return JSON.stringify(event);
  const writer = new FrameWriter();
  writer.object(event as unknown as Record<string, unknown>, 'content', contentJson);
  return writer.finish();
}

/** {@link liveEventFrame} as text. */
export function liveEventJson(event: Event): string {
  const frame = liveEventFrame(event);
  return typeof frame === 'string' ? frame : frame.toString('utf8');
}

/** Whether the event's content has a part with a plain blob (and nothing calls for care). */
function hasPlainBlob(event: Event): boolean {
  if (hasToJson(event)) return false;
  const content = event.content;
  if (!content || hasToJson(content)) return false;
  const parts = content.parts;
  if (!Array.isArray(parts) || hasToJson(parts)) return false;
  for (const part of parts) {
    const blob = (part as { inlineData?: Blob } | undefined)?.inlineData;
    if (blob && plainBlobOf(blob)) return true;
  }
  return false;
}

function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

/** `"key":` of the member names met (an event's, its content's, a blob's: a few dozen). */
const KEY_JSON = new Map<string, string>();

function keyJson(key: string): string {
  let json = KEY_JSON.get(key);
  if (json === undefined) {
    json = JSON.stringify(key) + ':';
    if (KEY_JSON.size < 256) KEY_JSON.set(key, json);
  }
  return json;
}

let lastNumber = Number.NaN;
let lastNumberJson = 'null';

/**
 * `JSON.stringify(value)` of a number, remembering the last one: the timestamps of the chunks of
 * one millisecond are the same number, and writing a time as text is not free.
 */
function numberJson(value: number): string {
  if (value !== lastNumber) {
    lastNumber = value;
    lastNumberJson = JSON.stringify(value);
  }
  return lastNumberJson;
}

/** What `JSON.stringify` escapes in a string (lone surrogates included): rare in an event. */
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

/**
 * `JSON.stringify(value)`, without its call for what an event's members mostly are: a string
 * that needs no escaping (ids, names, a mime type), a boolean, a number (see {@link numberJson}),
 * an object of empty plain objects (an event's default `actions`).
 */
function valueJson(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : '"' + value + '"';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return numberJson(value);
    case 'object':
      return (value !== null && emptyMapsJson(value)) || JSON.stringify(value);
    default:
      return JSON.stringify(value);
  }
}

/**
 * The JSON of a plain object whose members are all empty plain objects (`{"a":{},"b":{}}`), else
 * `undefined`.
 */
function emptyMapsJson(object: object): string | undefined {
  if (Object.getPrototypeOf(object) !== Object.prototype || hasToJson(object)) return undefined;
  let json = '{';
  for (const key in object) {
    const member = (object as Record<string, unknown>)[key];
    if (typeof member !== 'object' || member === null) return undefined;
    if (Object.getPrototypeOf(member) !== Object.prototype || hasToJson(member)) return undefined;
    for (const inner in member) {
      void inner;
      return undefined;
    }
    json += (json.length === 1 ? '' : ',') + keyJson(key) + '{}';
  }
  return json + '}';
}

/** Appends JSON text in order; one plain blob's data may stand in the middle. */
class FrameWriter {
  text = '';
  #head: string | undefined;
  #data: string | undefined;

  /**
   * `JSON.stringify(object)` for a plain object, with the member `special` written by `write`
   * (which returns `false` to leave the member out, as `JSON.stringify` does for `undefined`).
   */
  object(
    object: Record<string, unknown>,
    special: string,
    write: (writer: FrameWriter, value: unknown, prefix: string) => boolean,
  ): void {
    this.text += '{';
    let first = true;
    for (const key of Object.keys(object)) {
      const value = object[key];
      const prefix = (first ? '' : ',') + keyJson(key);
      if (key === special) {
        if (write(this, value, prefix)) first = false;
        continue;
      }
      const json = valueJson(value);
      if (json === undefined) continue;
      this.text += prefix + json;
      first = false;
    }
    this.text += '}';
  }

  /**
   * A plain blob's data as a JSON string, as it is: the first one of a frame is copied into the
   * frame's bytes by {@link finish} (ASCII: one byte per character, no encoding); any other is
   * appended to the text.
   */
  plainString(data: string): void {
    if (this.#data !== undefined) {
      this.text += '"' + data + '"';
      return;
    }
    this.#head = this.text + '"';
    this.#data = data;
    this.text = '"';
  }

  finish(): string | Buffer {
    const head = this.#head;
    const data = this.#data;
    if (head === undefined || data === undefined) return this.text;
    const tail = this.text;
    const headLength = Buffer.byteLength(head);
    const frame = Buffer.allocUnsafe(headLength + data.length + Buffer.byteLength(tail));
    frame.write(head, 0, 'utf8');
    frame.write(data, headLength, 'latin1');
    frame.write(tail, headLength + data.length, 'utf8');
    return frame;
  }
}

function contentJson(writer: FrameWriter, content: unknown, prefix: string): boolean {
  writer.text += prefix;
  writer.object(content as Record<string, unknown>, 'parts', partsJson);
  return true;
}

function partsJson(writer: FrameWriter, parts: unknown, prefix: string): boolean {
  writer.text += prefix + '[';
  let first = true;
  for (const part of parts as unknown[]) {
    if (!first) writer.text += ',';
    first = false;
    const blob = (part as { inlineData?: Blob } | undefined)?.inlineData;
    if (blob && plainBlobOf(blob) && !hasToJson(part as object) && !hasToJson(blob)) {
      writer.object(part as Record<string, unknown>, 'inlineData', blobJson);
    } else {
      // An array holds `null` where JSON.stringify leaves a member out.
      writer.text += JSON.stringify(part) ?? 'null';
    }
  }
  writer.text += ']';
  return true;
}

function blobJson(writer: FrameWriter, blob: unknown, prefix: string): boolean {
  writer.text += prefix;
  writer.object(blob as Record<string, unknown>, 'data', (inner, data, dataPrefix) => {
    const plain = plainBlobOf(blob as Blob);
    inner.text += dataPrefix;
    if (plain && plain.data === data) inner.plainString(plain.data);
    else inner.text += JSON.stringify(data);
    return true;
  });
  return true;
}
