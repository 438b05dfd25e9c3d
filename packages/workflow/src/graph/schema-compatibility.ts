import { z } from 'zod';

type JsonSchema = { type?: unknown; properties?: Record<string, unknown>; required?: unknown };

function jsonSchemaOf(schema: z.ZodType): JsonSchema | undefined {
  try {
    return z.toJSONSchema(schema, { unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return undefined; // a schema JSON Schema cannot describe is not checked
  }
}

function typesOf(schema: JsonSchema): Set<string> | undefined {
  const type = schema.type;
  if (typeof type === 'string') return new Set(type === 'integer' ? ['integer', 'number'] : [type]);
  if (Array.isArray(type)) return new Set(type.filter((t): t is string => typeof t === 'string'));
  return undefined;
}

/**
 * Why a value valid for `produced` cannot be valid for `expected`, or `undefined` when it may be:
 * the JSON types differ, or `expected` requires object properties `produced` does not have.
 * Only what both schemas state is compared, so the check never rejects a compatible pair.
 */
export function schemaMismatch(produced: z.ZodType, expected: z.ZodType): string | undefined {
  const from = jsonSchemaOf(produced);
  const to = jsonSchemaOf(expected);
  if (!from || !to) return undefined;
  const fromTypes = typesOf(from);
  const toTypes = typesOf(to);
  if (fromTypes && toTypes && ![...fromTypes].some((type) => toTypes.has(type))) {
    return `outputs ${[...fromTypes].join('|')} but the next node expects ${[...toTypes].join('|')}`;
  }
  if (fromTypes?.has('object') && toTypes?.has('object') && Array.isArray(to.required)) {
    const available = new Set(Object.keys(from.properties ?? {}));
    const missing = (to.required as unknown[]).filter(
      (key): key is string => typeof key === 'string' && !available.has(key),
    );
    if (missing.length > 0 && from.properties) {
      return `outputs no ${missing.map((key) => `"${key}"`).join(', ')} but the next node requires it`;
    }
  }
  return undefined;
}
