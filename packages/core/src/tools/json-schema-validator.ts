import type { ToolArgumentIssue } from '../errors/tool-arguments-error';
import type { JsonSchema } from '../models';

/**
 * A small JSON Schema validator for tool arguments declared with a raw schema. It understands the
 * subset models are given: `type` (also Gemini's upper-case names and type arrays), `properties`,
 * `required`, `additionalProperties`, `items`, `enum`, `const`, `nullable`, numeric and length
 * bounds, `pattern`, `anyOf` / `oneOf` / `allOf`. Unknown keywords (`format`, `description`...) are
 * ignored. Returns the issues found; an empty list means valid.
 */
export function validateJsonSchema(
  schema: JsonSchema,
  value: unknown,
  path = '',
): ToolArgumentIssue[] {
  const issues: ToolArgumentIssue[] = [];
  check(schema, value, path, issues);
  return issues;
}

function check(
  schema: JsonSchema,
  value: unknown,
  path: string,
  issues: ToolArgumentIssue[],
): void {
  if (value === null && schema.nullable === true) return;
  const types = typeList(schema.type);
  if (types && !types.some((type) => hasType(type, value))) {
    issues.push({ path, message: `expected ${types.join(' or ')}, received ${describe(value)}` });
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => deepEqual(option, value))) {
    issues.push({ path, message: `expected one of ${JSON.stringify(schema.enum)}` });
  }
  if ('const' in schema && !deepEqual(schema.const, value)) {
    issues.push({ path, message: `expected ${JSON.stringify(schema.const)}` });
  }
  if (typeof value === 'number') checkNumber(schema, value, path, issues);
  if (typeof value === 'string') checkString(schema, value, path, issues);
  if (Array.isArray(value)) checkArray(schema, value, path, issues);
  else if (isRecord(value)) checkObject(schema, value, path, issues);
  checkCombinators(schema, value, path, issues);
}

function checkNumber(
  schema: JsonSchema,
  value: number,
  path: string,
  issues: ToolArgumentIssue[],
): void {
  if (typeof schema.minimum === 'number' && value < schema.minimum) {
    issues.push({ path, message: `must be >= ${schema.minimum}` });
  }
  if (typeof schema.maximum === 'number' && value > schema.maximum) {
    issues.push({ path, message: `must be <= ${schema.maximum}` });
  }
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) {
    issues.push({ path, message: `must be > ${schema.exclusiveMinimum}` });
  }
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) {
    issues.push({ path, message: `must be < ${schema.exclusiveMaximum}` });
  }
}

function checkString(
  schema: JsonSchema,
  value: string,
  path: string,
  issues: ToolArgumentIssue[],
): void {
  if (typeof schema.minLength === 'number' && value.length < schema.minLength) {
    issues.push({ path, message: `must have at least ${schema.minLength} characters` });
  }
  if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) {
    issues.push({ path, message: `must have at most ${schema.maxLength} characters` });
  }
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) {
    issues.push({ path, message: `must match ${schema.pattern}` });
  }
}

function checkArray(
  schema: JsonSchema,
  value: unknown[],
  path: string,
  issues: ToolArgumentIssue[],
): void {
  if (typeof schema.minItems === 'number' && value.length < schema.minItems) {
    issues.push({ path, message: `must have at least ${schema.minItems} items` });
  }
  if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) {
    issues.push({ path, message: `must have at most ${schema.maxItems} items` });
  }
  if (isRecord(schema.items)) {
    const items = schema.items;
    value.forEach((item, index) => check(items, item, join(path, String(index)), issues));
  }
}

function checkObject(
  schema: JsonSchema,
  value: Record<string, unknown>,
  path: string,
  issues: ToolArgumentIssue[],
): void {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  if (Array.isArray(schema.required)) {
    for (const key of schema.required) {
      if (typeof key === 'string' && value[key] === undefined) {
        issues.push({ path: join(path, key), message: 'is required' });
      }
    }
  }
  for (const [key, item] of Object.entries(value)) {
    const propertySchema = properties[key];
    if (isRecord(propertySchema)) {
      if (item !== undefined) check(propertySchema, item, join(path, key), issues);
    } else if (schema.additionalProperties === false) {
      issues.push({ path: join(path, key), message: 'is not an allowed property' });
    } else if (isRecord(schema.additionalProperties)) {
      check(schema.additionalProperties, item, join(path, key), issues);
    }
  }
}

function checkCombinators(
  schema: JsonSchema,
  value: unknown,
  path: string,
  issues: ToolArgumentIssue[],
): void {
  if (Array.isArray(schema.allOf)) {
    for (const sub of schema.allOf) if (isRecord(sub)) check(sub, value, path, issues);
  }
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const options = schema[keyword];
    if (!Array.isArray(options)) continue;
    const matches = options.filter(
      (sub) => isRecord(sub) && validateJsonSchema(sub, value, path).length === 0,
    );
    if (matches.length === 0 || (keyword === 'oneOf' && matches.length > 1)) {
      issues.push({
        path,
        message:
          matches.length === 0
            ? `does not match any allowed schema (${keyword})`
            : 'matches more than one schema (oneOf)',
      });
    }
  }
}

function typeList(type: unknown): string[] | undefined {
  if (typeof type === 'string') return [type.toLowerCase()];
  if (Array.isArray(type))
    return type.filter((t): t is string => typeof t === 'string').map((t) => t.toLowerCase());
  return undefined;
}

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isRecord(value);
    case 'null':
      return value === null;
    default:
      return true;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer';
  return typeof value;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
