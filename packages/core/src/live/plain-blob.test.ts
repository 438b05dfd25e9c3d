import { describe, expect, it } from 'vitest';

import { PlainBlob, plainBlobOf } from './plain-blob';

const MIME = 'audio/pcm;rate=24000';
const base64 = (bytes: number[]) => Buffer.from(bytes).toString('base64');

describe('PlainBlob', () => {
  it('is made for padded base64 and reads, compares and serialises as the plain blob', () => {
    const data = base64([0, 1, 2, 3, 250, 251, 252]);
    const blob = PlainBlob.of(MIME, data);
    expect(blob).toBeInstanceOf(PlainBlob);
    expect(plainBlobOf(blob)).toBe(blob);
    expect(blob).toEqual({ mimeType: MIME, data });
    expect(JSON.stringify(blob)).toBe(JSON.stringify({ mimeType: MIME, data }));
    expect(Object.keys(blob)).toEqual(['mimeType', 'data']);
    expect(structuredClone(blob)).toEqual({ mimeType: MIME, data });
    // A spread copy is a plain object again.
    expect(plainBlobOf({ ...blob })).toBeUndefined();
    expect(PlainBlob.of(MIME, '')).toBeInstanceOf(PlainBlob);
    expect(PlainBlob.of(MIME, '-_AA')).toBeInstanceOf(PlainBlob);
  });

  it.each([
    ['a control character', 'AAAA\u0001AAA'],
    ['a quote', 'AAAA"AAA'],
    ['a backslash', 'AAA\\/AAA'],
    ['a character outside ASCII', 'AAAA\u00e9AAA'],
    ['a space', 'AAAA AAA'],
    ['an = inside', 'AA==AAAA'],
    ['a length that is not a multiple of 4', 'AAAAA'],
    ['more than 24 KB of bytes', 'A'.repeat(4 * 8193)],
  ])('is not made for data with %s: the plain object instead', (_, data) => {
    const blob = PlainBlob.of(MIME, data);
    expect(blob).not.toBeInstanceOf(PlainBlob);
    expect(blob).toEqual({ mimeType: MIME, data });
    expect(plainBlobOf(blob)).toBeUndefined();
  });

  it('is no longer plain once its data is replaced', () => {
    const blob = PlainBlob.of(MIME, 'AAECAw==');
    blob.data = 'a "quoted" value';
    expect(plainBlobOf(blob)).toBeUndefined();
    blob.data = 'AAECAw==';
    expect(plainBlobOf(blob)).toBe(blob);
  });
});
