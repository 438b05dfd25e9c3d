import type { OneOrMany, RetryDecision } from './types';

const NONE: readonly never[] = Object.freeze([]);

/** Normalise an optional callback or list of callbacks to a (frozen, shared when empty) list. */
export function toCallbackList<T>(callbacks: OneOrMany<T> | undefined): readonly T[] {
  if (callbacks === undefined) return NONE;
  return Array.isArray(callbacks) ? [...(callbacks as readonly T[])] : [callbacks as T];
}

/**
 * Call `callbacks` in order with `args` until one returns a value other than `undefined`, and
 * return that value (or `undefined` when none did). Used for every before/after/error chain.
 */
export async function firstResult<A, R>(
  callbacks: readonly ((args: A) => R | Promise<R>)[],
  args: A,
): Promise<Exclude<Awaited<R>, void> | undefined> {
  for (const callback of callbacks) {
    const result = await callback(args);
    if (result !== undefined) return result as Exclude<Awaited<R>, void>;
  }
  return undefined;
}

/** True for `{ retry: true }`, the retry decision of error callbacks and plugins. */
export function isRetryDecision(value: unknown): value is RetryDecision {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { retry?: unknown }).retry === true &&
    Object.keys(value).length === 1
  );
}
