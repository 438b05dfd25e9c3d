import { describe, expect, it } from 'vitest';

import { isVerbatimJsonText } from './json-text';

describe('isVerbatimJsonText', () => {
  it('accepts printable ASCII, the empty text included', () => {
    expect(isVerbatimJsonText('audio/pcm;rate=24000')).toBe(true);
    expect(isVerbatimJsonText(' ~')).toBe(true);
    expect(isVerbatimJsonText('')).toBe(true);
  });

  it('refuses an escape, a control character, DEL and anything outside ASCII', () => {
    for (const text of [
      'a\\nb',
      'a\\"b',
      'tab\there',
      '\u001f',
      'del\u007f',
      'caf\u00e9',
      '\u2028',
    ])
      expect(isVerbatimJsonText(text), JSON.stringify(text)).toBe(false);
  });
});
