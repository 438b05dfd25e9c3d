import pg from 'pg';

import { POSTGRES_URL } from './postgres-url';

/**
 * Probe the test PostgreSQL server with a real connection and `select 1`.
 *
 * Returns `undefined` when it answers, or a reason to skip the PostgreSQL tests (also printed with
 * `console.warn`) when it does not. Under `CI=true` an unreachable server throws instead: there the
 * tests must run, never silently skip.
 *
 * @example
 * ```ts
 * const skipPostgres = await postgresUnavailable();
 * describe.skipIf(skipPostgres !== undefined)('PostgreSQL', () => { ... });
 * ```
 */
export async function postgresUnavailable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    if (process.env.CI === 'true') {
      throw new Error(
        `PostgreSQL is required under CI=true but ${POSTGRES_URL} is unreachable: ${String(error)}`,
        { cause: error },
      );
    }
    const reason = `PostgreSQL unreachable at ${POSTGRES_URL} (${String(error)}); skipping its tests`;
    console.warn(reason);
    return reason;
  } finally {
    await client.end().catch(() => undefined);
  }
}
