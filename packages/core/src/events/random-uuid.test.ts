import { describe, expect, it } from 'vitest';

import { randomUuid } from './random-uuid';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('randomUuid', () => {
  it('returns version 4 UUIDs in lowercase text form', () => {
    for (let i = 0; i < 100; i++) expect(randomUuid()).toMatch(UUID_V4);
  });

  it('never repeats, also across refills of its pool of random bytes', () => {
    // 256 ids use up one pool: 2,000 ids cross several refills.
    const ids = Array.from({ length: 2000 }, () => randomUuid());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(UUID_V4);
  });

  it('returns independent strings: an earlier id does not change when later ones are made', () => {
    const first = randomUuid();
    const copy = `${first}`;
    randomUuid();
    expect(first).toBe(copy);
  });

  it('uses every hex digit in the random positions', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++)
      for (const char of randomUuid().replaceAll('-', '')) seen.add(char);
    expect([...seen].sort().join('')).toBe('0123456789abcdef');
  });
});
