/**
 * A function that runs `run` on its first call and hands every later caller the same promise, so
 * concurrent callers share one run; when that run fails, the failure goes to its callers and the
 * next call runs it again. The shape of a store's `migrate()`: idempotent, one run at a time,
 * never stuck on a failure that has since been fixed (a database that was down).
 *
 * @example
 * ```ts
 * class SqlNotes {
 *   readonly #migrate = onceUntilFailure(() => runMigrations(db, notesMigrations));
 *   migrate(): Promise<void> {
 *     return this.#migrate();
 *   }
 * }
 * ```
 */
export function onceUntilFailure<T>(run: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= run().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
