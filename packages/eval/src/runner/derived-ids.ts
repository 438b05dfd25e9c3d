import { createHash } from 'node:crypto';

/**
 * A UUID-shaped id derived from `seed` and `name` (a SHA-256 of both), the same on every run: what
 * an eval replayed from a cassette uses instead of random ids.
 */
export function derivedUuid(seed: string, name: string): string {
  const hex = createHash('sha256').update(`${seed}\u0000${name}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A source of ids for core's `withIdSource`: the n-th id drawn under `seed`. */
export function derivedIdSource(seed: string): () => string {
  let n = 0;
  return () => derivedUuid(seed, String(n++));
}
