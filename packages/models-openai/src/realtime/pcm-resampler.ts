/** The only PCM rate the Realtime API accepts and produces (`audio/pcm`, 24 kHz, 16-bit mono). */
export const REALTIME_PCM_RATE = 24_000;

/**
 * Streaming linear resampler for 16-bit little-endian mono PCM, e.g. the 16 kHz microphone audio
 * of the live contract to the Realtime API's 24 kHz. It keeps its position and the last sample
 * between chunks, so a stream cut in arbitrary chunks resamples exactly as one buffer would (an
 * odd trailing byte waits for the next chunk). Linear interpolation is enough for speech going up
 * in rate; it adds no aliasing when upsampling.
 */
export class PcmResampler {
  readonly fromRate: number;
  readonly toRate: number;
  /** Input samples advanced per output sample. */
  readonly #step: number;
  /** Position of the next output sample, in input samples, relative to `#previous`. */
  #position = 0;
  /** The last input sample of the previous chunk (index -1 of the next one), once there is one. */
  #previous: number | undefined;
  #oddByte: number | undefined;

  constructor(fromRate: number, toRate: number = REALTIME_PCM_RATE) {
    this.fromRate = fromRate;
    this.toRate = toRate;
    this.#step = fromRate / toRate;
  }

  /** Resamples the next chunk of the stream; the result may be empty for a tiny chunk. */
  push(chunk: Buffer): Buffer {
    let input = chunk;
    if (this.#oddByte !== undefined) {
      input = Buffer.concat([Buffer.from([this.#oddByte]), chunk]);
      this.#oddByte = undefined;
    }
    if (input.length % 2 === 1) {
      this.#oddByte = input[input.length - 1];
      input = input.subarray(0, input.length - 1);
    }
    if (this.fromRate === this.toRate) return Buffer.from(input);
    const count = input.length / 2;
    if (count === 0) return Buffer.alloc(0);
    // Samples seen as one array: index -1 is the previous chunk's last sample.
    const sample = (index: number): number =>
      index < 0 ? (this.#previous ?? input.readInt16LE(0)) : input.readInt16LE(index * 2);
    const start = this.#previous === undefined ? 0 : -1;
    let position = this.#previous === undefined ? 0 : this.#position - 1;
    const out: number[] = [];
    while (position <= count - 1) {
      const left = Math.floor(position);
      const fraction = position - left;
      const a = sample(Math.max(left, start));
      const b = fraction === 0 ? a : sample(Math.min(left + 1, count - 1));
      out.push(Math.round(a + (b - a) * fraction));
      position += this.#step;
    }
    this.#previous = input.readInt16LE((count - 1) * 2);
    // Keep the position relative to the new "previous" sample (the last one of this chunk).
    this.#position = position - (count - 1);
    const buffer = Buffer.alloc(out.length * 2);
    for (let i = 0; i < out.length; i += 1) buffer.writeInt16LE(clamp(out[i] as number), i * 2);
    return buffer;
  }
}

function clamp(value: number): number {
  return value > 32767 ? 32767 : value < -32768 ? -32768 : value;
}

/**
 * The sample rate named by a PCM MIME type (`audio/pcm;rate=16000`), or `undefined` when the type
 * is not raw PCM. `audio/pcm` without a rate is the live contract's default, 16 kHz.
 */
export function pcmRate(mimeType: string): number | undefined {
  const [type, ...params] = mimeType.split(';').map((piece) => piece.trim().toLowerCase());
  if (type !== 'audio/pcm' && type !== 'audio/l16') return undefined;
  for (const param of params) {
    const [key, value] = param.split('=');
    if (key === 'rate') {
      const rate = Number(value);
      return Number.isInteger(rate) && rate > 0 ? rate : Number.NaN;
    }
  }
  return 16_000;
}
