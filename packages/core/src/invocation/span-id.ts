import { randomBytes } from 'node:crypto';

const PREFIX = randomBytes(4).toString('hex');
/** Char codes of {@link PREFIX}, the first half of every id. */
const PREFIX_CODES = Array.from(PREFIX, (char) => char.charCodeAt(0));
const HEX_CODES = Array.from('0123456789abcdef', (char) => char.charCodeAt(0));
let counter = 0;

/**
 * A process-unique diagnostics span id. Cheap (a counter), so contexts can always carry one and
 * observers can rebuild the run > agent > model > tool tree.
 *
 * The prefix and the counter's 8 hex digits are written as one flat string: a template with
 * `padStart` made three strings (and a rope) per id, and a turn makes five ids.
 */
export function newSpanId(): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  if (counter > 0xffffffff) return `${PREFIX}${counter.toString(16).padStart(8, '0')}`;
  const value = counter;
  const p = PREFIX_CODES;
  const h = HEX_CODES;
  return String.fromCharCode(
    p[0]!,
    p[1]!,
    p[2]!,
    p[3]!,
    p[4]!,
    p[5]!,
    p[6]!,
    p[7]!,
    h[(value >>> 28) & 15]!,
    h[(value >>> 24) & 15]!,
    h[(value >>> 20) & 15]!,
    h[(value >>> 16) & 15]!,
    h[(value >>> 12) & 15]!,
    h[(value >>> 8) & 15]!,
    h[(value >>> 4) & 15]!,
    h[value & 15]!,
  );
}
