import type { Kysely } from 'kysely';

/** The SQL databases the ADK stores drive. */
export type SqlDialect = 'sqlite' | 'postgres';

/**
 * A Kysely instance over any schema. A store touches only its own tables, so it accepts the
 * user's instance whatever its database type parameter is.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely<DB> is invariant in DB.
export type AnyKysely = Kysely<any>;
