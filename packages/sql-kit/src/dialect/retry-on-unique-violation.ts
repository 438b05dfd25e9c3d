import { isUniqueViolation } from './is-unique-violation';

/**
 * Run `work`, and run it again while it fails with a unique or primary-key violation
 * ({@link isUniqueViolation}), at most `attempts` times in all: for an insert (or a delete and
 * insert) that can lose a race with a concurrent writer and is right to redo on top of it. Any
 * other error, and the violation of the last attempt, is thrown as it is.
 *
 * @example
 * ```ts
 * const version = await retryOnUniqueViolation(20, () => insertNextVersion(db, key));
 * ```
 */
export async function retryOnUniqueViolation<T>(
  attempts: number,
  work: () => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error) && attempt < attempts) continue;
      throw error;
    }
  }
}
