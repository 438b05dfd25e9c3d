import { InvalidArgumentError, type Blob } from '@adk/core';

import { PcmResampler, pcmRate } from './pcm-resampler';
import type { RealtimeClientEvent } from './realtime-wire';

/**
 * Realtime input of one connection as client events: PCM audio at any rate resampled to the
 * API's 24 kHz (`input_audio_buffer.append`, one resampler per stream so chunk edges stay
 * seamless), images as user `input_image` items. Counts the audio appended since the buffer was
 * last committed or cleared, so an empty buffer is never committed.
 */
export class RealtimeAudioInput {
  #resampler: PcmResampler | undefined;
  #bufferedBytes = 0;

  /** 24 kHz PCM bytes appended since the last commit or clear. */
  get bufferedBytes(): number {
    return this.#bufferedBytes;
  }

  /** The buffer was committed or cleared. */
  cleared(): void {
    this.#bufferedBytes = 0;
  }

  /**
   * The event carrying `blob`, or `undefined` when a tiny audio chunk yields no sample yet.
   *
   * @throws InvalidArgumentError for anything but `audio/pcm` and images.
   */
  toEvent(blob: Blob): RealtimeClientEvent | undefined {
    if (blob.mimeType.startsWith('image/')) {
      const image_url = `data:${blob.mimeType};base64,${blob.data}`;
      return {
        type: 'conversation.item.create',
        item: { type: 'message', role: 'user', content: [{ type: 'input_image', image_url }] },
      };
    }
    const rate = pcmRate(blob.mimeType);
    if (rate === undefined || !Number.isFinite(rate)) {
      throw new InvalidArgumentError({
        message: `OpenAI Realtime takes audio/pcm (with a rate) and images as realtime input; got "${blob.mimeType}".`,
        argument: 'blob',
      });
    }
    if (this.#resampler?.fromRate !== rate) this.#resampler = new PcmResampler(rate);
    const audio = this.#resampler.push(Buffer.from(blob.data, 'base64'));
    if (audio.length === 0) return undefined;
    this.#bufferedBytes += audio.length;
    return { type: 'input_audio_buffer.append', audio: audio.toString('base64') };
  }
}
