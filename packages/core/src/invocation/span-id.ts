import { randomBytes } from 'node:crypto';

const PREFIX = randomBytes(4).toString('hex');
let counter = 0;

/**
 * A process-unique diagnostics span id. Cheap (a counter), so contexts can always carry one and
 * observers can rebuild the run > agent > model > tool tree.
 */
export function newSpanId(): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `${PREFIX}${counter.toString(16).padStart(8, '0')}`;
}
