import { describe, expect, it } from 'vitest';

import { randomFillSync } from 'node:crypto';

import { createEvent } from './event';
import {
  formatUuid,
  prefixedRandomUuid,
  randomUuid,
  sequentialUuids,
  withIdSource,
} from './random-uuid';

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

  it('writes every byte at its own place, in order (formatUuid against a reference)', () => {
    const reference = (bytes: Uint8Array, start: number): string => {
      const hex = Buffer.from(bytes.subarray(start, start + 16)).toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    };
    // Distinct bytes at every position show a byte written twice, skipped or misplaced.
    const distinct = Uint8Array.from({ length: 20 }, (_, index) => 0x10 + index * 11);
    expect(formatUuid(distinct, 0)).toBe(reference(distinct, 0));
    expect(formatUuid(distinct, 3)).toBe(reference(distinct, 3));
    expect(formatUuid(new Uint8Array(16), 0)).toBe('00000000-0000-0000-0000-000000000000');
    expect(formatUuid(new Uint8Array(16).fill(255), 0)).toBe(
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
    );
    const random = new Uint8Array(16 * 50);
    randomFillSync(random);
    for (let start = 0; start < random.length; start += 16)
      expect(formatUuid(random, start)).toBe(reference(random, start));
  });
});

describe('withIdSource', () => {
  it('supplies the ids made in its async context, and only there', async () => {
    let n = 0;
    const ids = await withIdSource(
      () => `id-${++n}`,
      async () => {
        const first = createEvent({ invocationId: 'i', author: 'user' }).id;
        await new Promise((resolve) => setTimeout(resolve, 1));
        return [first, randomUuid()];
      },
    );
    expect(ids).toEqual(['id-1', 'id-2']);
    expect(randomUuid()).toMatch(UUID_V4);
  });
});

describe('prefixedRandomUuid', () => {
  it('returns the prefix then a version 4 UUID, a new one each time', () => {
    const ids = Array.from({ length: 600 }, (_, i) => prefixedRandomUuid(i % 2 ? 'adk-' : 'e-'));
    expect(new Set(ids).size).toBe(ids.length);
    for (const [i, id] of ids.entries()) {
      const prefix = i % 2 ? 'adk-' : 'e-';
      expect(id.startsWith(prefix)).toBe(true);
      expect(id.slice(prefix.length)).toMatch(UUID_V4);
    }
  });

  it('returns independent strings, and takes the id source of withIdSource', () => {
    const first = prefixedRandomUuid('adk-');
    const copy = `${first}`;
    prefixedRandomUuid('e-');
    expect(first).toBe(copy);
    expect(
      withIdSource(
        () => 'fixed',
        () => prefixedRandomUuid('adk-'),
      ),
    ).toBe('adk-fixed');
  });
});

describe('sequentialUuids', () => {
  it('gives version 4 UUIDs in text form, counting up in the last 12 digits', () => {
    const next = sequentialUuids();
    // 70,000 ids cross the 256-id steps of the count's upper digits and a carry into the fifth
    // digit from the end.
    const ids = Array.from({ length: 70_000 }, () => next());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(UUID_V4);
    const prefix = ids[0]!.slice(0, 24);
    for (const [count, id] of ids.entries()) {
      expect(id.slice(0, 24)).toBe(prefix);
      expect(id.slice(24)).toBe(count.toString(16).padStart(12, '0'));
    }
  });

  it('draws a random rest of the id per source', () => {
    const firsts = Array.from({ length: 300 }, () => sequentialUuids()());
    expect(new Set(firsts).size).toBe(firsts.length);
    for (const id of firsts) expect(id).toMatch(UUID_V4);
  });

  it('is the source of withIdSource when made in its async context', () => {
    let n = 0;
    const next = withIdSource(
      () => `id-${++n}`,
      () => sequentialUuids(),
    );
    expect([next(), next()]).toEqual(['id-1', 'id-2']);
  });
});
