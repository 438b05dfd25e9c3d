import { randomFillSync } from 'node:crypto';

/** Random bytes drawn from the system's CSPRNG in batches (16 per id). */
const POOL = Buffer.allocUnsafe(16 * 256);
let poolOffset = POOL.length;
/** The 36 ASCII characters of the id being written. */
const TEXT = Buffer.allocUnsafe(36);
const HEX = Buffer.from('0123456789abcdef', 'latin1');
/** Positions of the 16 bytes in the text form (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`). */
const OFFSETS = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
TEXT[8] = TEXT[13] = TEXT[18] = TEXT[23] = 0x2d; // '-'

/**
 * A random (version 4) UUID in lowercase text form, like `crypto.randomUUID()`, from the same
 * source of randomness.
 *
 * The text is written as bytes and read back as one flat string: `randomUUID()` builds its result
 * by concatenation, a rope of many small strings that costs about ten times the heap of the id
 * while it lives (and events keep their ids for the life of a session).
 *
 * @example
 * ```ts
 * const id = randomUuid(); // '1b4e28ba-2fa1-41d2-883f-0016d3cca427'
 * ```
 */
export function randomUuid(): string {
  if (poolOffset === POOL.length) {
    randomFillSync(POOL);
    poolOffset = 0;
  }
  const start = poolOffset;
  poolOffset += 16;
  for (let index = 0; index < 16; index++) {
    let byte = POOL[start + index] as number;
    if (index === 6)
      byte = (byte & 0x0f) | 0x40; // version 4
    else if (index === 8) byte = (byte & 0x3f) | 0x80; // RFC 4122 variant
    const at = OFFSETS[index] as number;
    TEXT[at] = HEX[byte >> 4] as number;
    TEXT[at + 1] = HEX[byte & 0x0f] as number;
  }
  return TEXT.toString('latin1', 0, 36);
}
