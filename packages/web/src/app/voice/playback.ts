import { fromBase64, pcm16ToFloat, rateOf } from './pcm';

/**
 * Plays the model's PCM audio in order: each chunk becomes an AudioBuffer at its own rate (24 kHz
 * from Gemini), scheduled right after the previous one on one AudioContext. `flush` stops what is
 * playing and drops what is queued (the user barged in).
 */
export class PcmPlayer {
  #context: AudioContext | undefined;
  #next = 0;
  readonly #sources = new Set<AudioBufferSourceNode>();
  /** Chunks scheduled so far. */
  queued = 0;
  /** Chunks stopped or dropped by {@link flush}. */
  flushed = 0;

  /** Create (or resume) the context: call from the click that starts voice, for autoplay rules. */
  async resume(): Promise<void> {
    this.#context ??= new AudioContext();
    if (this.#context.state === 'suspended') await this.#context.resume();
  }

  /** Chunks scheduled and not yet finished. */
  get pending(): number {
    return this.#sources.size;
  }

  play(base64: string, mimeType: string | undefined): void {
    const samples = pcm16ToFloat(fromBase64(base64));
    if (samples.length === 0) return;
    const context = (this.#context ??= new AudioContext());
    const buffer = context.createBuffer(1, samples.length, rateOf(mimeType));
    buffer.copyToChannel(samples, 0);
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(context.destination);
    const start = Math.max(context.currentTime, this.#next);
    source.start(start);
    this.#next = start + buffer.duration;
    this.#sources.add(source);
    source.onended = () => this.#sources.delete(source);
    this.queued++;
  }

  flush(): void {
    for (const source of this.#sources) {
      source.onended = null;
      source.stop();
      source.disconnect();
    }
    this.flushed += this.#sources.size;
    this.#sources.clear();
    this.#next = 0;
  }

  async close(): Promise<void> {
    this.flush();
    const context = this.#context;
    this.#context = undefined;
    await context?.close().catch(() => undefined);
  }
}
