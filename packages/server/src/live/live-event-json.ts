import { createEventActions, plainBlobOf, type Blob, type Event, type PlainBlob } from '@adk/core';

/**
 * The frame of an event for the `/run_live` socket: the UTF-8 bytes (or the text) of exactly
 * `JSON.stringify(event)`. Written faster for a partial event whose content carries a blob that a
 * live connection made plain (a `PlainBlob`: an audio chunk's base64, checked once by the
 * connection): its data, about 1.3 KB per 20 ms chunk, is neither scanned for characters to
 * escape nor encoded, but copied into the frame's bytes as it is (no text of the whole frame is
 * made). Everything else is `JSON.stringify`'s own work.
 */
export function liveEventFrame(event: Event): string | Buffer {
  if (event.partial === true) {
    const frame = plainDeltaFrame(event);
    if (frame !== undefined) return frame;
  }
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

/**
 * The head of the last plain delta's frame (everything before its data) as bytes, and what it
 * was written from: the chunks of one run share it.
 */
const head = {
  invocationId: '',
  author: '',
  branch: undefined as string | undefined,
  role: '',
  mimeType: '',
  bytes: undefined as Buffer | undefined,
};

/** `JSON.stringify` of an event's default `actions` (three empty maps). */
const DEFAULT_ACTIONS_JSON = JSON.stringify(createEventActions());

/** The fixed text of a plain delta's tail, around its id and timestamp. */
const TAIL_ID = '"}}]},"id":"';
const TAIL_TIMESTAMP = '","timestamp":';
const TAIL_END = ',"actions":' + DEFAULT_ACTIONS_JSON + '}';
/** A string of printable ASCII without a quote or a backslash: its JSON is itself in quotes. */
const PLAIN_ASCII = /^[ !#-[\]-~]*$/;

/**
 * The frame of the event a live run makes for a plain audio delta (`LiveResponseMapper.mapDelta`,
 * the members in `createEvent`'s order: `invocationId`, `author`, `branch` when set, `partial`,
 * `content` with a `role` and one part holding a `PlainBlob` and nothing else, `id`,
 * `timestamp`, the default `actions`), written from a template: the head's bytes are those of the
 * last such frame when its invocation, author, branch, role and MIME type are the same, so only
 * the data and the tail (id, timestamp, actions) are written per chunk. `undefined` for any other
 * event, or anything that calls for care (a `toJSON`, another member, a member of another type):
 * the general writer then gives `JSON.stringify`'s bytes.
 */
function plainDeltaFrame(event: Event): Buffer | undefined {
  const keys = Object.keys(event);
  const branched = keys.length === 8;
  if (!branched && keys.length !== 7) return undefined;
  let at = 0;
  if (keys[at++] !== 'invocationId' || keys[at++] !== 'author') return undefined;
  if (branched && keys[at++] !== 'branch') return undefined;
  if (
    keys[at++] !== 'partial' ||
    keys[at++] !== 'content' ||
    keys[at++] !== 'id' ||
    keys[at++] !== 'timestamp' ||
    keys[at] !== 'actions'
  ) {
    return undefined;
  }
  const { invocationId, author, branch, content, id, timestamp } = event;
  if (
    typeof invocationId !== 'string' ||
    typeof author !== 'string' ||
    (branched && typeof branch !== 'string') ||
    typeof id !== 'string' ||
    typeof timestamp !== 'number' ||
    typeof (event as { toJSON?: unknown }).toJSON === 'function' ||
    !isDefaultActions(event.actions)
  ) {
    return undefined;
  }
  const blob = plainDeltaBlob(content);
  if (blob === undefined) return undefined;
  const role = content!.role as string;
  let headBytes = head.bytes;
  if (
    headBytes === undefined ||
    head.invocationId !== invocationId ||
    head.author !== author ||
    head.branch !== branch ||
    head.role !== role ||
    head.mimeType !== blob.mimeType
  ) {
    const text =
      '{"invocationId":' +
      valueJson(invocationId) +
      ',"author":' +
      valueJson(author) +
      (branched ? ',"branch":' + valueJson(branch) : '') +
      ',"partial":true,"content":{"role":' +
      valueJson(role) +
      ',"parts":[{"inlineData":{"mimeType":' +
      valueJson(blob.mimeType) +
      ',"data":"';
    headBytes = Buffer.from(text, 'utf8');
    Object.assign(head, { invocationId, author, branch, role, mimeType: blob.mimeType });
    head.bytes = headBytes;
  }
  const data = blob.data;
  // An id of printable ASCII with nothing to escape (a random one always): the whole tail is
  // then one byte a character, written as Latin-1 without measuring or encoding it as UTF-8.
  const ascii = PLAIN_ASCII.test(id);
  const tail = ascii
    ? TAIL_ID + id + TAIL_TIMESTAMP + numberJson(timestamp) + TAIL_END
    : '"}}]},"id":' + valueJson(id) + ',"timestamp":' + numberJson(timestamp) + TAIL_END;
  const dataAt = headBytes.length;
  const tailAt = dataAt + data.length;
  const frame = Buffer.allocUnsafe(tailAt + (ascii ? tail.length : Buffer.byteLength(tail)));
  headBytes.copy(frame, 0);
  // The data is base64 (checked): one byte a character. With an ASCII tail, data and tail go in
  // one native write of their concatenation (a rope, written through without flattening it).
  if (ascii) {
    frame.write(data + tail, dataAt, 'latin1');
  } else {
    frame.write(data, dataAt, 'latin1');
    frame.write(tail, tailAt, 'utf8');
  }
  return frame;
}

/**
 * The plain blob of a content that is `{ role, parts: [{ inlineData }] }` and nothing else (a
 * string role; the blob a `PlainBlob` with only its `mimeType` and `data`), else `undefined`.
 */
function plainDeltaBlob(content: unknown): PlainBlob | undefined {
  // Each check reads `toJSON` at its own site (not through hasToJson): every site then sees one
  // shape, and V8 reads the missing member without a megamorphic lookup. It reads it before the
  // prototype: the load's map check lets the optimizing compiler fold `Object.getPrototypeOf`
  // into a constant, which otherwise is a call into the runtime each time (six a frame).
  if (
    typeof content !== 'object' ||
    content === null ||
    typeof (content as { toJSON?: unknown }).toJSON === 'function' ||
    Object.getPrototypeOf(content) !== Object.prototype
  ) {
    return undefined;
  }
  const keys = Object.keys(content);
  if (keys.length !== 2 || keys[0] !== 'role' || keys[1] !== 'parts') return undefined;
  const { role, parts } = content as { role: unknown; parts: unknown };
  if (typeof role !== 'string' || !Array.isArray(parts) || parts.length !== 1) return undefined;
  if (typeof (parts as { toJSON?: unknown }).toJSON === 'function') return undefined;
  const part: unknown = parts[0];
  if (
    typeof part !== 'object' ||
    part === null ||
    typeof (part as { toJSON?: unknown }).toJSON === 'function' ||
    Object.getPrototypeOf(part) !== Object.prototype
  ) {
    return undefined;
  }
  const partKeys = Object.keys(part);
  if (partKeys.length !== 1 || partKeys[0] !== 'inlineData') return undefined;
  const blob = (part as { inlineData: Blob }).inlineData;
  const plain = typeof blob === 'object' && blob !== null ? plainBlobOf(blob) : undefined;
  if (
    plain === undefined ||
    typeof (plain as { toJSON?: unknown }).toJSON === 'function' ||
    typeof plain.mimeType !== 'string'
  ) {
    return undefined;
  }
  const blobKeys = Object.keys(plain);
  return blobKeys.length === 2 && blobKeys[0] === 'mimeType' && blobKeys[1] === 'data'
    ? plain
    : undefined;
}

/** An event's default `actions`: exactly the three maps, each an empty plain object. */
function isDefaultActions(actions: unknown): boolean {
  if (
    typeof actions !== 'object' ||
    actions === null ||
    typeof (actions as { toJSON?: unknown }).toJSON === 'function' ||
    Object.getPrototypeOf(actions) !== Object.prototype
  ) {
    return false;
  }
  const keys = Object.keys(actions);
  if (
    keys.length !== 3 ||
    keys[0] !== 'stateDelta' ||
    keys[1] !== 'artifactDelta' ||
    keys[2] !== 'requestedToolConfirmations'
  ) {
    return false;
  }
  const maps = actions as Record<string, unknown>;
  return (
    isEmptyPlainObject(maps.stateDelta) &&
    isEmptyPlainObject(maps.artifactDelta) &&
    isEmptyPlainObject(maps.requestedToolConfirmations)
  );
}

function isEmptyPlainObject(value: unknown): boolean {
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as { toJSON?: unknown }).toJSON === 'function' ||
    Object.getPrototypeOf(value) !== Object.prototype
  ) {
    return false;
  }
  for (const key in value) {
    void key;
    return false;
  }
  return true;
}
