import type { JsonSchema } from '@adk/core';

import type { SchemaObject } from './types';

const KEPT = new Set([
  'type',
  'format',
  'title',
  'description',
  'enum',
  'const',
  'default',
  'nullable',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
]);
const MAX_DEPTH = 16;

/**
 * An OpenAPI schema as models (and core's argument validator) take it: the JSON Schema keywords
 * they understand, `readOnly` properties left out of request schemas, OpenAPI 3.0's boolean
 * `exclusiveMinimum`/`exclusiveMaximum` turned into numbers, and circular references (which
 * dereferencing leaves as circular objects) cut into an open object at the point they recur.
 */
export function modelSchema(schema: SchemaObject | undefined): JsonSchema {
  if (!schema) return {};
  return copy(schema, new Set(), 0);
}

function copy(schema: SchemaObject, ancestors: Set<object>, depth: number): JsonSchema {
  if (ancestors.has(schema) || depth > MAX_DEPTH) {
    return { type: 'object', description: 'Same shape as the enclosing object.' };
  }
  ancestors.add(schema);
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (KEPT.has(key)) out[key] = value;
  }
  numericExclusive(schema, out);
  if (isSchema(schema.items)) out.items = copy(schema.items, ancestors, depth + 1);
  if (isSchema(schema.properties)) {
    const properties: Record<string, JsonSchema> = {};
    const readOnly = new Set<string>();
    for (const [name, property] of Object.entries(schema.properties)) {
      if (!isSchema(property)) continue;
      if (property.readOnly === true) {
        readOnly.add(name);
        continue;
      }
      properties[name] = copy(property, ancestors, depth + 1);
    }
    out.properties = properties;
    if (Array.isArray(schema.required)) {
      const required = (schema.required as unknown[]).filter(
        (name): name is string => typeof name === 'string' && !readOnly.has(name),
      );
      if (required.length > 0) out.required = required;
    }
  }
  if (typeof schema.additionalProperties === 'boolean') {
    out.additionalProperties = schema.additionalProperties;
  } else if (isSchema(schema.additionalProperties)) {
    out.additionalProperties = copy(schema.additionalProperties, ancestors, depth + 1);
  }
  for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = schema[keyword];
    if (Array.isArray(options)) {
      out[keyword] = options.filter(isSchema).map((option) => copy(option, ancestors, depth + 1));
    }
  }
  ancestors.delete(schema);
  return out;
}

function numericExclusive(schema: SchemaObject, out: JsonSchema): void {
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    const value = schema[exclusive];
    if (typeof value === 'number') out[exclusive] = value;
    else if (value === true && typeof schema[bound] === 'number') {
      out[exclusive] = schema[bound];
      delete out[bound];
    }
  }
}

function isSchema(value: unknown): value is SchemaObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
