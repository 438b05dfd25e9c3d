import { describe, expect, it } from 'vitest';

import { PcmResampler, pcmRate } from '../src/realtime';

function sine(samples: number, rate: number, hz = 440): Buffer {
  const buffer = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i += 1)
    buffer.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / rate)), i * 2);
  return buffer;
}

describe('PcmResampler', () => {
  it('turns 16 kHz into 24 kHz: 1.5 times the samples, the same waveform', () => {
    const input = sine(1600, 16_000); // 100 ms
    const output = new PcmResampler(16_000).push(input);
    const samples = output.length / 2;
    expect(samples).toBeGreaterThanOrEqual(2398);
    expect(samples).toBeLessThanOrEqual(2400);
    // Every output sample is close to the ideal 24 kHz sine (linear interpolation error is small).
    let worst = 0;
    for (let i = 0; i < samples; i += 1) {
      const ideal = 8000 * Math.sin((2 * Math.PI * 440 * i) / 24_000);
      worst = Math.max(worst, Math.abs(output.readInt16LE(i * 2) - ideal));
    }
    expect(worst).toBeLessThan(80);
  });

  it('gives the same bytes whatever the chunking, odd byte boundaries included', () => {
    const input = sine(4801, 16_000);
    const whole = new PcmResampler(16_000).push(input);
    const chunked = new PcmResampler(16_000);
    const pieces: Buffer[] = [];
    for (let at = 0, size = 1; at < input.length; at += size, size = (size * 7 + 3) % 641 || 5)
      pieces.push(chunked.push(input.subarray(at, at + size)));
    expect(Buffer.concat(pieces).equals(whole)).toBe(true);
  });

  it('passes 24 kHz through and downsamples 48 kHz', () => {
    const input = sine(480, 24_000);
    expect(new PcmResampler(24_000).push(input).equals(input)).toBe(true);
    expect(new PcmResampler(48_000).push(sine(960, 48_000)).length / 2).toBe(480);
  });

  it('reads the rate of a PCM MIME type', () => {
    expect(pcmRate('audio/pcm;rate=16000')).toBe(16_000);
    expect(pcmRate('audio/pcm; rate=24000')).toBe(24_000);
    expect(pcmRate('audio/pcm')).toBe(16_000);
    expect(pcmRate('audio/pcm;rate=abc')).toBeNaN();
    expect(pcmRate('audio/webm')).toBeUndefined();
  });
});
