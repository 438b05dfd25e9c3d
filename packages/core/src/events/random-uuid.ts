import { AsyncLocalStorage } from 'node:async_hooks';
import { randomFillSync } from 'node:crypto';

/** Random bytes drawn from the system's CSPRNG in batches (16 per id). */
const POOL = Buffer.allocUnsafe(16 * 256);
let poolOffset = POOL.length;
/** The 36 ASCII characters of the id being written. */
const TEXT = Buffer.allocUnsafe(36);
TEXT[8] = TEXT[13] = TEXT[18] = TEXT[23] = 0x2d; // '-'
/** ASCII code of the high and the low hex digit of each byte value. */
const HIGH = new Uint8Array(256);
const LOW = new Uint8Array(256);
for (let byte = 0; byte < 256; byte++) {
  HIGH[byte] = '0123456789abcdef'.charCodeAt(byte >> 4);
  LOW[byte] = '0123456789abcdef'.charCodeAt(byte & 0x0f);
}

/** The id source of the current async context, if {@link withIdSource} set one. */
const ID_SOURCE = new AsyncLocalStorage<() => string>();

/**
 * Run `fn` with `source` making every id core would draw at random while `fn`'s work runs (its
 * awaits and the callbacks it schedules included): event ids, invocation ids and the `adk-` ids of
 * function calls. For reproducible runs, such as an evaluation replayed from a cassette, whose
 * results must be identical run to run; `source` must return ids unique within what it is used
 * for. Other async contexts keep random ids.
 *
 * @example
 * ```ts
 * let n = 0;
 * await withIdSource(() => `id-${++n}`, () => drain(runner.run({ userId, sessionId, newMessage })));
 * ```
 */
export function withIdSource<T>(source: () => string, fn: () => T): T {
  return ID_SOURCE.run(source, fn);
}

/**
 * A random (version 4) UUID in lowercase text form, like `crypto.randomUUID()`, from the same
 * source of randomness.
 *
 * The text is written as bytes and read back as one flat string: `randomUUID()` builds its result
 * by concatenation, a rope of many small strings that costs about ten times the heap of the id
 * while it lives (and events keep their ids for the life of a session).
 *
 * @example
 * ```ts
 * const id = randomUuid(); // '1b4e28ba-2fa1-41d2-883f-0016d3cca427'
 * ```
 */
export function randomUuid(): string {
  const source = ID_SOURCE.getStore();
  if (source !== undefined) return source();
  return formatUuid(POOL, drawUuidBytes());
}

/** Room for a prefix and an id, read back as one string by {@link prefixedRandomUuid}. */
const PREFIXED = Buffer.allocUnsafe(64);

/**
 * `${prefix}${randomUuid()}` (the source of {@link withIdSource} included) as one flat string:
 * the template makes a rope of the two (which a stored event then flattens into a third string).
 * For ids made on every turn (`adk-` function call ids, `e-` invocation ids). Internal.
 */
export function prefixedRandomUuid(prefix: 'adk-' | 'e-'): string {
  const source = ID_SOURCE.getStore();
  if (source !== undefined) return `${prefix}${source()}`;
  writeUuid(POOL, drawUuidBytes());
  const length = prefix.length;
  for (let at = 0; at < length; at++) PREFIXED[at] = prefix.charCodeAt(at);
  TEXT.copy(PREFIXED, length, 0, 36);
  return PREFIXED.toString('latin1', 0, length + 36);
}

/** The two lowercase hex digits of each byte value, as strings (made on first use). */
let hexPairs: string[] | undefined;

/**
 * A source of ids for the partial events of one live run (audio and text deltas, shown and never
 * stored), made once per run and about a tenth of {@link randomUuid}'s cost per id: the text form
 * of a random version 4 UUID drawn when the source is made, whose last 12 hex digits count the
 * ids given (from zero). Ids are unique within the source by the count (2^48 of them) and across
 * sources by the 74 random bits of the rest, and have the form and length of `randomUuid()`'s;
 * unlike those, the next id of a source follows from the last one. Where {@link withIdSource} set
 * a source (in the async context that makes this one), that source instead. Internal.
 *
 * @example
 * ```ts
 * const nextId = sequentialUuids();
 * nextId(); // '1b4e28ba-2fa1-41d2-883f-000000000000'
 * nextId(); // '1b4e28ba-2fa1-41d2-883f-000000000001'
 * ```
 */
export function sequentialUuids(): () => string {
  const source = ID_SOURCE.getStore();
  if (source !== undefined) return source;
  const base = formatUuid(POOL, drawUuidBytes()).slice(0, 24);
  const pairs = (hexPairs ??= Array.from({ length: 256 }, (_, byte) =>
    String.fromCharCode(HIGH[byte] as number, LOW[byte] as number),
  ));
  let count = 0;
  let prefix = '';
  // The count's digits above the last two change once in 256 ids: kept as the id's prefix, so an
  // id is one concatenation. That makes a rope of two strings; reading a character of it has V8
  // flatten it in place at once, cheaper than each later reader of a rope (a regular expression
  // test, JSON.stringify) flattening or walking it (-0.5k instructions a frame on /run_live).
  return () => {
    const low = count & 0xff;
    if (low === 0) prefix = base + (count / 256).toString(16).padStart(10, '0');
    count++;
    const id = prefix + (pairs[low] as string);
    id.charCodeAt(0);
    return id;
  };
}

/** The offset in {@link POOL} of 16 fresh random bytes, marked as a version 4 UUID. */
function drawUuidBytes(): number {
  if (poolOffset === POOL.length) {
    randomFillSync(POOL);
    poolOffset = 0;
  }
  const start = poolOffset;
  poolOffset += 16;
  POOL[start + 6] = ((POOL[start + 6] as number) & 0x0f) | 0x40; // version 4
  POOL[start + 8] = ((POOL[start + 8] as number) & 0x3f) | 0x80; // RFC 4122 variant
  return start;
}

/**
 * The text form (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, lowercase) of the 16 bytes of `bytes`
 * from `start`, as one flat string. Internal to {@link randomUuid}; exported for its tests.
 *
 * Written out byte by byte rather than as a loop over a table of positions: ids are made several
 * times per turn, often before the JIT has optimized this function, and the unrolled form runs
 * about a third faster in the interpreter (and about a quarter faster once optimized).
 */
export function formatUuid(bytes: Uint8Array, start: number): string {
  writeUuid(bytes, start);
  return TEXT.toString('latin1', 0, 36);
}

/** The text form of the 16 bytes of `bytes` from `start`, written into {@link TEXT}. */
function writeUuid(bytes: Uint8Array, start: number): void {
  const text = TEXT;
  let byte = bytes[start] as number;
  text[0] = HIGH[byte] as number;
  text[1] = LOW[byte] as number;
  byte = bytes[start + 1] as number;
  text[2] = HIGH[byte] as number;
  text[3] = LOW[byte] as number;
  byte = bytes[start + 2] as number;
  text[4] = HIGH[byte] as number;
  text[5] = LOW[byte] as number;
  byte = bytes[start + 3] as number;
  text[6] = HIGH[byte] as number;
  text[7] = LOW[byte] as number;
  // text[8] is '-'
  byte = bytes[start + 4] as number;
  text[9] = HIGH[byte] as number;
  text[10] = LOW[byte] as number;
  byte = bytes[start + 5] as number;
  text[11] = HIGH[byte] as number;
  text[12] = LOW[byte] as number;
  // text[13] is '-'
  byte = bytes[start + 6] as number;
  text[14] = HIGH[byte] as number;
  text[15] = LOW[byte] as number;
  byte = bytes[start + 7] as number;
  text[16] = HIGH[byte] as number;
  text[17] = LOW[byte] as number;
  // text[18] is '-'
  byte = bytes[start + 8] as number;
  text[19] = HIGH[byte] as number;
  text[20] = LOW[byte] as number;
  byte = bytes[start + 9] as number;
  text[21] = HIGH[byte] as number;
  text[22] = LOW[byte] as number;
  // text[23] is '-'
  byte = bytes[start + 10] as number;
  text[24] = HIGH[byte] as number;
  text[25] = LOW[byte] as number;
  byte = bytes[start + 11] as number;
  text[26] = HIGH[byte] as number;
  text[27] = LOW[byte] as number;
  byte = bytes[start + 12] as number;
  text[28] = HIGH[byte] as number;
  text[29] = LOW[byte] as number;
  byte = bytes[start + 13] as number;
  text[30] = HIGH[byte] as number;
  text[31] = LOW[byte] as number;
  byte = bytes[start + 14] as number;
  text[32] = HIGH[byte] as number;
  text[33] = LOW[byte] as number;
  byte = bytes[start + 15] as number;
  text[34] = HIGH[byte] as number;
  text[35] = LOW[byte] as number;
}
