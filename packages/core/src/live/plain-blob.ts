import type { Blob } from '../content';

/** Scratch space of {@link isPaddedBase64}: 24 KB, 0.5 s of 24 kHz audio; longer data is not plain. */
const SCRATCH = Buffer.allocUnsafe(24 * 1024);

/**
 * Whether `text` is padded base64 (Node's alphabet, `-` and `_` included), checked natively:
 * decoding skips any other character (a control character, a quote, a space, anything outside
 * ASCII) and stops at an `=` inside, and then yields fewer bytes than the length promises.
 */
function isPaddedBase64(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  const expected = Buffer.byteLength(text, 'base64');
  return expected <= SCRATCH.length && SCRATCH.write(text, 0, 'base64') === expected;
}

/**
 * A blob whose data is known to be padded base64 (no more than 24 KB of bytes): printable ASCII
 * without `"` or `\`, so it goes into JSON text as it is, with no escaping. A live model
 * connection makes one for each audio chunk ({@link PlainBlob.of}); the server then writes the
 * chunk's event without scanning the data for characters to escape (see {@link plainBlobOf}).
 *
 * It is an ordinary {@link Blob} to everyone else: `mimeType` and `data` are its only own
 * members, so it serialises, compares and spreads as the plain object would (a spread copy is a
 * plain object again).
 *
 * @example
 * ```ts
 * const blob = PlainBlob.of('audio/pcm;rate=24000', 'AAECAw==');
 * plainBlobOf(blob) === blob; // true
 * blob.data = 'other';
 * plainBlobOf(blob); // undefined: the data is no longer the data that was checked
 * ```
 */
export class PlainBlob implements Blob {
  mimeType: string;
  data: string;
  readonly #checked: string;

  private constructor(mimeType: string, data: string) {
    this.mimeType = mimeType;
    this.data = data;
    this.#checked = data;
  }

  /**
   * A `PlainBlob` when `data` is padded base64 of at most 24 KB (checked natively, about a
   * fifth of a microsecond for 20 ms of 24 kHz audio), else the plain `{ mimeType, data }`.
   */
  static of(mimeType: string, data: string): Blob {
    return isPaddedBase64(data) ? new PlainBlob(mimeType, data) : { mimeType, data };
  }

  /** Whether `data` is still the data that was checked. */
  get isPlain(): boolean {
    return this.data === this.#checked;
  }
}

/**
 * `blob` when it is a {@link PlainBlob} whose data is still the data that was checked, else
 * `undefined` (any other blob, a copy of a plain blob, or one whose data was replaced).
 */
export function plainBlobOf(blob: Blob): PlainBlob | undefined {
  return blob instanceof PlainBlob && blob.isPlain ? blob : undefined;
}
