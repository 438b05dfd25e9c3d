import type { Blob } from '../content';

/**
 * A blob whose data a live model connection read as plain text: printable ASCII without `"` or
 * `\` (as base64 is), so it goes into JSON text as it is, with no escaping; optionally with
 * `bytes`, its characters as bytes (a view of the provider's frame the data was read from). A
 * server then writes the chunk's event without scanning or encoding the data again (see
 * {@link plainBlobOf}).
 *
 * It is an ordinary {@link Blob} to everyone else: `mimeType` and `data` are its only own
 * members, so it serialises, compares and spreads as the plain object (a spread copy is a plain
 * object again). The constructor records the caller's word, it does not check it: use it only
 * for data checked as above, and never change `bytes` afterwards.
 *
 * @example
 * ```ts
 * const blob = new PlainBlob('audio/pcm;rate=24000', 'AAECAw==');
 * plainBlobOf(blob) === blob; // true
 * blob.data = 'other';
 * plainBlobOf(blob); // undefined: the data is no longer the data that was checked
 * ```
 */
export class PlainBlob implements Blob {
  mimeType: string;
  data: string;
  readonly #checked: string;
  readonly #bytes: Uint8Array | undefined;

  constructor(mimeType: string, data: string, bytes?: Uint8Array) {
    this.mimeType = mimeType;
    this.data = data;
    this.#checked = data;
    this.#bytes = bytes;
  }

  /** The data's bytes, when given and the data is still the data that was checked. */
  get plainBytes(): Uint8Array | undefined {
    return this.data === this.#checked ? this.#bytes : undefined;
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
