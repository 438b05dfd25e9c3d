/**
 * The key conversion `@google/adk` applies to `event_data`: camelCase keys become snake_case,
 * recursively through arrays, except under the preserved paths, whose values are user data
 * (state deltas, tool arguments and results, metadata) and are stored verbatim.
 */

/** Preserved paths, written with camelCase segments; arrays add no segment. */
const PRESERVED_PATHS = new Set([
  'actions.stateDelta',
  'actions.artifactDelta',
  'actions.requestedAuthConfigs',
  'actions.requestedToolConfirmations',
  'actions.customMetadata',
  'actions.agentState',
  'customMetadata',
  'output',
  'route',
]);

/**
 * Tool arguments and results are preserved wherever a part appears (`content.parts[]` as in
 * `@google/adk`, and also inside a compaction's summary content).
 */
const PRESERVED_SUFFIXES = ['functionCall.args', 'functionResponse.response'];

function isPreserved(path: string): boolean {
  if (PRESERVED_PATHS.has(path)) return true;
  for (const suffix of PRESERVED_SUFFIXES)
    if (path === suffix || path.endsWith(`.${suffix}`)) return true;
  return false;
}

/** `stateDelta` → `state_delta`. */
export function toSnakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** `state_delta` → `stateDelta`. */
export function toCamelCase(key: string): string {
  return key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

function convert(value: unknown, path: string, toStorage: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => convert(item, path, toStorage));
  if (value === null || typeof value !== 'object') return value;
  const converted: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    const camel = toStorage ? key : toCamelCase(key);
    const stored = toStorage ? toSnakeCase(key) : camel;
    const childPath = path === '' ? camel : `${path}.${camel}`;
    converted[stored] = isPreserved(childPath) ? child : convert(child, childPath, toStorage);
  }
  return converted;
}

/** Convert an event (camelCase) to its stored `event_data` form (snake_case). */
export function toStorageKeys(event: object): Record<string, unknown> {
  return convert(event, '', true) as Record<string, unknown>;
}

/** Convert stored `event_data` (snake_case) back to the camelCase event shape. */
export function fromStorageKeys(data: object): Record<string, unknown> {
  return convert(data, '', false) as Record<string, unknown>;
}
