import { describe, expect, it } from 'vitest';

import { parseJsonLines } from './parse-json-lines';

async function collect(pieces: string[], onMalformed?: (line: string) => void) {
  async function* source() {
    yield* pieces;
  }
  const values: unknown[] = [];
  for await (const value of parseJsonLines(source(), onMalformed ? { onMalformed } : {})) {
    values.push(value);
  }
  return values;
}

describe('parseJsonLines', () => {
  it('parses lines split anywhere, skips blank lines, keeps a last line without newline', async () => {
    const text = '{"a":1}\n\n{"b":[1,2]}\r\n{"c":"x"}';
    for (let cut = 0; cut <= text.length; cut++) {
      expect(await collect([text.slice(0, cut), text.slice(cut)])).toEqual([
        { a: 1 },
        { b: [1, 2] },
        { c: 'x' },
      ]);
    }
  });

  it('throws on a malformed line unless onMalformed handles it', async () => {
    await expect(collect(['{"a":1}\n{oops\n'])).rejects.toThrow(SyntaxError);
    const bad: string[] = [];
    expect(await collect(['{oops\n{"a":1}\n'], (line) => bad.push(line))).toEqual([{ a: 1 }]);
    expect(bad).toEqual(['{oops']);
  });
});
