/**
 * Python ADK's eval models accept both spellings of every field (`eval_id` and `evalId`), write
 * files in snake_case and answer HTTP in camelCase (pydantic aliases), except `EvalSet` whose own
 * fields have no alias. Free-form values (session state, tool arguments and responses) keep their
 * keys as they are. A {@link KeySpec} says which keys of an object are model fields, so a
 * conversion renames exactly those.
 */
export type FieldSpec = 'leaf' | 'opaque' | KeySpec | { readonly tuple: readonly FieldSpec[] };

/** The model fields of one object (camelCase names) and how to convert each value. */
export interface KeySpec {
  readonly fields: Readonly<Record<string, FieldSpec>>;
  /** The object's own fields have no camelCase alias in Python (it answers them in snake_case). */
  readonly unaliased?: boolean;
}

/** `eval_set_id` → `evalSetId`. */
export function snakeToCamel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** `evalSetId` → `eval_set_id`. */
export function camelToSnake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Rename the model fields of `value` to camelCase and drop the `null`s Python writes for unset
 * optional fields. Keys that are not model fields are kept as they are.
 */
export function toCamelKeys(value: unknown, spec: FieldSpec): unknown {
  if (spec === 'leaf' || spec === 'opaque') return value;
  if (Array.isArray(value)) {
    if ('tuple' in spec)
      return value.map((item, i) => toCamelKeys(item, spec.tuple[i] ?? 'opaque'));
    return value.map((item) => toCamelKeys(item, spec));
  }
  if (!isPlainObject(value) || 'tuple' in spec) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const camel = snakeToCamel(key);
    const child = spec.fields[camel];
    if (child === undefined) {
      out[key] = item;
      continue;
    }
    if (item === null) continue;
    // Both spellings present: the camelCase one wins, as an explicit alias does in pydantic.
    if (camel !== key && camel in value) continue;
    out[camel] = toCamelKeys(item, child);
  }
  return out;
}

/**
 * Write `value` (camelCase model fields) in Python's spelling: `snake` as its files are written
 * (`model_dump_json()`), `alias` as its HTTP server answers (`by_alias`). Other keys are kept.
 */
export function toWireKeys(value: unknown, spec: FieldSpec, style: 'snake' | 'alias'): unknown {
  if (spec === 'leaf' || spec === 'opaque') return value;
  if (Array.isArray(value)) {
    if ('tuple' in spec)
      return value.map((item, i) => toWireKeys(item, spec.tuple[i] ?? 'opaque', style));
    return value.map((item) => toWireKeys(item, spec, style));
  }
  if (!isPlainObject(value) || 'tuple' in spec) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    const child = spec.fields[key];
    if (child === undefined) {
      out[key] = item;
      continue;
    }
    const name = style === 'snake' || spec.unaliased ? camelToSnake(key) : key;
    out[name] = toWireKeys(item, child, style);
  }
  return out;
}

/**
 * Turn a zod issue path over the camelCase form back into the spelling used in `original`
 * (`['evalCases', 0, 'evalId']` → `eval_cases[0].eval_id` for a snake_case file).
 */
export function pathInOriginal(original: unknown, path: readonly PropertyKey[]): string {
  let node: unknown = original;
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') {
      out += `[${segment}]`;
      node = Array.isArray(node) ? node[segment] : undefined;
      continue;
    }
    const key = String(segment);
    let name = key;
    if (isPlainObject(node) && !(key in node) && camelToSnake(key) in node)
      name = camelToSnake(key);
    out += out === '' ? name : `.${name}`;
    node = isPlainObject(node) ? node[name] : undefined;
  }
  return out;
}
