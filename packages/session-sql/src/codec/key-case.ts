/**
 * The key conversion `@google/adk` applies to `event_data`: camelCase keys become snake_case,
 * recursively through arrays, except under the preserved paths, whose values are user data
 * (state deltas, tool arguments and results, metadata) and are stored verbatim.
 */

/** A node of the preserved-path tree: `true` marks a preserved value, an object goes deeper. */
interface PathNode {
  readonly [camelKey: string]: PathNode | true;
}

/** Preserved paths, with camelCase segments; arrays add no segment. */
const PRESERVED: PathNode = {
  actions: {
    stateDelta: true,
    artifactDelta: true,
    requestedAuthConfigs: true,
    requestedToolConfirmations: true,
    customMetadata: true,
    agentState: true,
  },
  customMetadata: true,
  output: true,
  route: true,
};

/**
 * Tool arguments and results are preserved wherever a part appears (`content.parts[]` as in
 * `@google/adk`, and also inside a compaction's summary content): `args` under `functionCall`,
 * `response` under `functionResponse`.
 */
function isToolPayload(parentKey: string | undefined, key: string): boolean {
  return (
    (parentKey === 'functionCall' && key === 'args') ||
    (parentKey === 'functionResponse' && key === 'response')
  );
}

const CACHE_LIMIT = 4096;
const snakeCache = new Map<string, string>();
const camelCache = new Map<string, string>();

function cached(cache: Map<string, string>, key: string, convert: (key: string) => string): string {
  let value = cache.get(key);
  if (value === undefined) {
    value = convert(key);
    if (cache.size < CACHE_LIMIT) cache.set(key, value);
  }
  return value;
}

/** `stateDelta` → `state_delta`. */
export function toSnakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** `state_delta` → `stateDelta`. */
export function toCamelCase(key: string): string {
  return key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

function convert(
  value: unknown,
  node: PathNode | undefined,
  parentKey: string | undefined,
  toStorage: boolean,
): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => convert(item, node, parentKey, toStorage));
  const source = value as Record<string, unknown>;
  const converted: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const child = source[key];
    if (child === undefined) continue;
    const camel = toStorage ? key : cached(camelCache, key, toCamelCase);
    const stored = toStorage ? cached(snakeCache, key, toSnakeCase) : camel;
    const next = node !== undefined && Object.hasOwn(node, camel) ? node[camel] : undefined;
    const item =
      next === true || isToolPayload(parentKey, camel)
        ? child
        : convert(child, next, camel, toStorage);
    if (stored === '__proto__') {
      // Data, never a prototype change.
      Object.defineProperty(converted, stored, {
        value: item,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      converted[stored] = item;
    }
  }
  return converted;
}

/** Convert an event (camelCase) to its stored `event_data` form (snake_case). */
export function toStorageKeys(event: object): Record<string, unknown> {
  return convert(event, PRESERVED, undefined, true) as Record<string, unknown>;
}

/** Convert stored `event_data` (snake_case) back to the camelCase event shape. */
export function fromStorageKeys(data: object): Record<string, unknown> {
  return convert(data, PRESERVED, undefined, false) as Record<string, unknown>;
}
