/** The rate the live route expects for microphone audio (Gemini Live's input rate). */
export const INPUT_RATE = 16_000;

/** The rate of model audio when its MIME type does not say (Gemini Live's output rate). */
export const OUTPUT_RATE = 24_000;

/** Samples per chunk sent: 40 ms at 16 kHz. */
export const CHUNK_SAMPLES = 640;

/** Base64 of bytes, in slices so long buffers do not overflow the argument list. */
export function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (let at = 0; at < bytes.length; at += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(text);
}

/** The bytes of a base64 string. */
export function fromBase64(base64: string): Uint8Array {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index);
  return bytes;
}

/** The sample rate of a `audio/pcm;rate=N` MIME type, else {@link OUTPUT_RATE}. */
export function rateOf(mimeType: string | undefined): number {
  const rate = /rate=(\d+)/.exec(mimeType ?? '')?.[1];
  return rate ? Number(rate) : OUTPUT_RATE;
}

/** Little-endian 16-bit PCM bytes as samples in [-1, 1). */
export function pcm16ToFloat(bytes: Uint8Array): Float32Array<ArrayBuffer> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const samples = new Float32Array(bytes.byteLength >> 1);
  for (let index = 0; index < samples.length; index++) {
    samples[index] = view.getInt16(index * 2, true) / 0x8000;
  }
  return samples;
}

/**
 * Turns microphone samples at the capture rate into 16 kHz mono PCM16 chunks of
 * {@link CHUNK_SAMPLES} (40 ms). When the capture context could not run at 16 kHz, samples are
 * picked at the 16 kHz pace (the position carries over between calls).
 */
export class Pcm16Encoder {
  readonly #step: number;
  readonly #chunk = new DataView(new ArrayBuffer(CHUNK_SAMPLES * 2));
  #filled = 0;
  #position = 0;

  constructor(
    inputRate: number,
    private readonly onChunk: (bytes: Uint8Array) => void,
  ) {
    this.#step = inputRate / INPUT_RATE;
  }

  push(input: Float32Array): void {
    while (this.#position < input.length) {
      const sample = Math.max(-1, Math.min(1, input[Math.floor(this.#position)] ?? 0));
      this.#chunk.setInt16(this.#filled * 2, sample < 0 ? sample * 0x8000 : sample * 0x7fff, true);
      this.#position += this.#step;
      if (++this.#filled === CHUNK_SAMPLES) {
        this.onChunk(new Uint8Array(this.#chunk.buffer.slice(0)));
        this.#filled = 0;
      }
    }
    this.#position -= input.length;
  }
}
