import { describe, expect, it } from 'vitest';

import { validateJsonSchema } from './json-schema-validator';

const paths = (schema: Record<string, unknown>, value: unknown) =>
  validateJsonSchema(schema, value).map((issue) => `${issue.path}: ${issue.message}`);

describe('validateJsonSchema', () => {
  it('accepts valid values', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, pattern: '^[a-z]+$' },
        age: { type: 'integer', minimum: 0, maximum: 150 },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
        kind: { enum: ['a', 'b'] },
        note: { type: ['string', 'null'] },
      },
      required: ['name'],
    };
    expect(paths(schema, { name: 'ada', age: 36, tags: ['x'], kind: 'a', note: null })).toEqual([]);
  });

  it('reports each problem with its path', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 2 },
        age: { type: 'integer', exclusiveMinimum: 0 },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
        address: {
          type: 'object',
          properties: { zip: { type: 'string', maxLength: 5 } },
          required: ['zip'],
        },
      },
      required: ['name', 'id'],
      additionalProperties: false,
    };
    expect(paths(schema, { name: 'a', age: 0, tags: [], address: {}, extra: 1 })).toEqual([
      'id: is required',
      'name: must have at least 2 characters',
      'age: must be > 0',
      'tags: must have at least 1 items',
      'address.zip: is required',
      'extra: is not an allowed property',
    ]);
    expect(paths(schema, 'text')).toEqual([': expected object, received string']);
  });

  it('understands Gemini upper-case types, nullable, const and combinators', () => {
    expect(paths({ type: 'OBJECT', properties: { n: { type: 'NUMBER' } } }, { n: 'x' })).toEqual([
      'n: expected number, received string',
    ]);
    expect(paths({ type: 'string', nullable: true }, null)).toEqual([]);
    expect(paths({ const: 'on' }, 'off')).toEqual([': expected "on"']);
    expect(paths({ anyOf: [{ type: 'string' }, { type: 'number' }] }, true)).toEqual([
      ': does not match any allowed schema (anyOf)',
    ]);
    expect(paths({ oneOf: [{ type: 'number' }, { type: 'integer' }] }, 3)).toEqual([
      ': matches more than one schema (oneOf)',
    ]);
    expect(paths({ allOf: [{ type: 'number' }, { minimum: 5 }] }, 3)).toEqual([': must be >= 5']);
  });
});
