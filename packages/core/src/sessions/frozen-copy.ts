import { InvalidArgumentError } from '../errors';
import { isWellFormed } from './well-formed-text';

/** Deeper than this, the copy is handed to `structuredClone` (which also handles cycles). */
const MAX_DEPTH = 100;
const TOO_DEEP = Symbol('too deep');
/** Thrown inside the copy when a string or key holds a lone surrogate (see {@link IllFormedTextError}). */
const ILL_FORMED = Symbol('ill-formed text');

/**
 * Thrown by {@link frozenCopy} and {@link frozenCopyReplacing} when a string or an object key of
 * the value holds a lone UTF-16 surrogate, which no store can keep: the copy checks each string it
 * passes, so storing an event walks it once, not once to validate and once to copy.
 */
export class IllFormedTextError extends Error {
  constructor() {
    super('The value holds a lone UTF-16 surrogate.');
    this.name = 'IllFormedTextError';
  }
}

const EMPTY_OBJECT: Readonly<Record<string, never>> = Object.freeze({});
/** Receives one char code per copied string, so the flattening read cannot be optimised away. */
let _flattenSink = 0;
const EMPTY_ARRAY: readonly never[] = Object.freeze([]);

/** Deep-frozen constants that {@link frozenCopy} hands out as they are instead of copying. */
const shared = new WeakSet<object>();

/**
 * Deep-freeze `value` and register it as a shared constant: {@link frozenCopy} returns it as is
 * wherever it appears (for example one empty `actions` object for every event that has none).
 */
export function shareFrozen<T extends object>(value: T): T {
  shared.add(freezeDeep(value));
  return value;
}

/**
 * A deep copy of `value` in which every object and array is frozen, made in one pass. This is
 * how session stores keep events: copied once at append time, then shared with every reader.
 *
 * - Plain objects and arrays are copied; strings and other primitives are shared (they are
 *   immutable), so a stored event does not duplicate its ids, author or texts. Strings are
 *   flattened on the way. Empty objects and arrays become one shared frozen instance, and so do
 *   constants registered with {@link shareFrozen}.
 * - Anything else that `structuredClone` accepts (a `Date`, a `Map`, a typed array...), a cycle,
 *   or data nested deeper than 100 levels is copied by `structuredClone`, then frozen.
 * - Functions and symbols cannot be stored: throws `InvalidArgumentError`.
 * - A string or key holding a lone UTF-16 surrogate cannot be stored either: throws
 *   {@link IllFormedTextError} (checked on the strings it copies itself; data handed to
 *   `structuredClone` is not checked).
 *
 * Costs O(size of `value`) and allocates only the copy (`structuredClone` then a freeze pass
 * costs about three times as much).
 *
 * @example
 * ```ts
 * const stored = frozenCopy({ content: { parts: [{ text: 'hi' }] } });
 * Object.isFrozen(stored.content.parts[0]); // true
 * ```
 */
export function frozenCopy<T>(value: T): T {
  try {
    return copy(value, 0) as T;
  } catch (error) {
    if (error === ILL_FORMED) throw new IllFormedTextError();
    if (error !== TOO_DEEP) throw error;
    return freezeDeep(structuredClone(value));
  }
}

/**
 * {@link frozenCopy} of the plain object `value` with `replacement` as the value of `key` (added
 * last when `value` has no such key): one copy, where spreading first would copy the top level
 * twice. `replacement` is copied too unless it is shared (see {@link shareFrozen}).
 */
export function frozenCopyReplacing<T extends object>(
  value: T,
  key: string,
  replacement: unknown,
): T {
  try {
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    let replaced = false;
    for (const name in source) {
      if (!Object.hasOwn(source, name)) continue;
      if (!isWellFormed(name)) throw ILL_FORMED;
      let item: unknown;
      if (name === key) {
        item = copy(replacement, 1);
        replaced = true;
      } else {
        item = copy(source[name], 1);
      }
      setOwn(out, name, item);
    }
    if (!replaced) setOwn(out, key, copy(replacement, 1));
    return Object.freeze(out) as T;
  } catch (error) {
    if (error === ILL_FORMED) throw new IllFormedTextError();
    if (error !== TOO_DEEP) throw error;
    return freezeDeep(structuredClone({ ...value, [key]: replacement }));
  }
}

function setOwn(out: Record<string, unknown>, key: string, item: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(out, key, {
      value: item,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    out[key] = item;
  }
}

function copy(value: unknown, depth: number): unknown {
  if (value === null) return value;
  switch (typeof value) {
    case 'object':
      break;
    case 'string':
      // Reading a character flattens a concatenated (rope) string in place. Ids built by
      // concatenation (`randomUUID()`, `adk-${...}`) are ropes of many small pieces that would
      // otherwise stay in memory as long as the event: flattening halves an idle session's heap.
      _flattenSink ^= (value as string).charCodeAt(0);
      if (!isWellFormed(value as string)) throw ILL_FORMED;
      return value;
    case 'function':
    case 'symbol':
      throw new InvalidArgumentError({ message: `A ${typeof value} cannot be stored.` });
    default:
      return value;
  }
  if (depth > MAX_DEPTH) throw TOO_DEEP;
  if (shared.has(value)) return value;
  if (Array.isArray(value)) {
    const length = value.length;
    if (length === 0) return EMPTY_ARRAY;
    // Sized up front: an array grown by push keeps room for 16 more elements.
    const out = new Array<unknown>(length);
    for (let index = 0; index < length; index++) out[index] = copy(value[index], depth + 1);
    return Object.freeze(out);
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    return freezeDeep(structuredClone(value));
  }
  const source = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  // for-in over a plain object (own keys only: its prototype is Object.prototype or null) walks
  // V8's enum cache instead of allocating a key array.
  for (const key in source) {
    if (!Object.hasOwn(source, key)) continue;
    if (!isWellFormed(key)) throw ILL_FORMED;
    out ??= {};
    setOwn(out, key, copy(source[key], depth + 1));
  }
  return out === undefined ? EMPTY_OBJECT : Object.freeze(out);
}

function freezeDeep<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) freezeDeep((value as Record<string, unknown>)[key]);
  }
  return value;
}
