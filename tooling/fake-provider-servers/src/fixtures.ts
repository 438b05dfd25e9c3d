import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FIXTURES = new URL('../__fixtures__/', import.meta.url);

/**
 * Reads a payload fixture from `__fixtures__/` (captured-looking provider responses, reproduced from
 * the providers' API documentation). Use it with a `raw` reply: `{ raw: { body: readFixture(name) } }`.
 */
export function readFixture(name: string): string {
  return readFileSync(fileURLToPath(new URL(name, FIXTURES)), 'utf8');
}
