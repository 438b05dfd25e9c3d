import { sql, type Kysely, type RawBuilder } from 'kysely';

import type { SqlDialect } from '../dialect';

/** Where a store's tables live: the database kind, and a PostgreSQL schema or the connection's default. */
export interface SqlTablesLocation {
  dialect: SqlDialect;
  /** PostgreSQL only (see {@link checkSchemaOption}); the connection's current schema when omitted. */
  schema?: string | undefined;
}

/**
 * `db` with `schema` applied to its query-builder statements (`db.withSchema(schema)`), or `db`
 * itself when there is no schema.
 *
 * @example
 * ```ts
 * await inSchema(db, options.schema).selectFrom('adk_notes').selectAll().execute();
 * ```
 */
export function inSchema<DB>(db: Kysely<DB>, schema: string | undefined): Kysely<DB> {
  return schema === undefined ? db : db.withSchema(schema);
}

/**
 * A table in raw SQL, qualified by `schema` when there is one (`"schema"."table"`), else as the
 * connection's `search_path` finds it. Raw SQL ignores `withSchema`, so it names the schema itself.
 *
 * @example
 * ```ts
 * await sql`select count(*) from ${qualifiedTable('adk_notes', schema)}`.execute(db);
 * ```
 */
export function qualifiedTable(name: string, schema: string | undefined): RawBuilder<unknown> {
  return schema === undefined ? sql.table(name) : sql.id(schema, name);
}
