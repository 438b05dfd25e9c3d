import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Write a WAV file Chromium plays as the microphone (`--use-file-for-fake-audio-capture`): a
 * 440 Hz tone, 16-bit mono at 48 kHz, `seconds` long (Chromium loops it).
 */
export function writeToneWav(dir: string, seconds = 2): string {
  const rate = 48_000;
  const samples = rate * seconds;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let index = 0; index < samples; index++) {
    wav.writeInt16LE(
      Math.round(Math.sin((2 * Math.PI * 440 * index) / rate) * 12_000),
      44 + index * 2,
    );
  }
  const path = join(dir, 'tone.wav');
  writeFileSync(path, wav);
  return path;
}

/** Chromium's flags for a fake microphone that plays `wav`, granted without a prompt. */
export function fakeMicrophoneArgs(wav: string): string[] {
  return [
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-audio-capture=${wav}`,
    '--autoplay-policy=no-user-gesture-required',
  ];
}

/** The peak of little-endian PCM16 bytes (0 for silence). */
export function pcmPeak(bytes: Buffer): number {
  let peak = 0;
  for (let at = 0; at + 1 < bytes.length; at += 2)
    peak = Math.max(peak, Math.abs(bytes.readInt16LE(at)));
  return peak;
}
