import { describe, expect, it } from 'vitest';

import { formatJsonPath, parseJsonPath } from './json-path';

describe('parseJsonPath', () => {
  it('reads member names, quoted names with escapes, and indexes', () => {
    expect(parseJsonPath('$')).toEqual([]);
    expect(parseJsonPath('$.legs[10].to_city')).toEqual(['legs', 10, 'to_city']);
    expect(parseJsonPath("$['a b']['it\\'s'][\"q\\\"\\u00e9\"]")).toEqual(['a b', "it's", 'q"é']);
    expect(parseJsonPath('$.café')).toEqual(['café']);
  });

  it('refuses paths that do not name one value', () => {
    for (const path of [
      'city',
      '$..city',
      '$.*',
      '$[*]',
      '$[-1]',
      '$[01]',
      '$[0:2]',
      '$.a.',
      "$['open",
      '$[?@.a]',
      '$.1a',
    ]) {
      expect(parseJsonPath(path), path).toBeUndefined();
    }
  });

  it('formats a path back', () => {
    expect(formatJsonPath(['legs', 0, 'a b'])).toBe('$.legs[0]["a b"]');
    expect(parseJsonPath(formatJsonPath(['x', 2, 'a "b"']))).toEqual(['x', 2, 'a "b"']);
  });
});
