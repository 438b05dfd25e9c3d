import { sql } from 'kysely';

import type { AnyKysely } from '../dialect';

/** What is wrong with a database's schema version (see {@link SchemaVersioning.error}). */
export interface SchemaVersionProblem {
  /**
   * The stored `schema_version`: `undefined` when the tables are not installed, `'unknown'` when a
   * newer version's migrations ran but no version can be read.
   */
  found: string | undefined;
  /** The version this package reads and writes ({@link SchemaVersioning.supported}). */
  supported: string;
  /**
   * Kysely's error when its bookkeeping lists a migration this code does not know (a newer version
   * of the package migrated this database); absent otherwise.
   */
  migrationError?: unknown;
}

/**
 * How a store versions its tables: a key/value table whose `schema_version` row says which
 * version of the store wrote them. A database newer than `supported` is refused, never downgraded.
 */
export interface SchemaVersioning {
  /** The key/value table (`key`, `value` columns) holding the `schema_version` row. */
  metadataTable: string;
  /** The `schema_version` this package reads and writes, a decimal integer such as `'1'`. */
  supported: string;
  /** The store's own typed error for a missing or newer schema. */
  error: (problem: SchemaVersionProblem) => Error;
}

/** Where to read the version: the metadata table, in a PostgreSQL schema or the default one. */
export interface SchemaVersionLocation {
  /** See {@link SchemaVersioning.metadataTable}. */
  metadataTable: string;
  /** PostgreSQL schema holding the table; the connection's `search_path` decides when omitted. */
  schema?: string | undefined;
}

/** The stored `schema_version`, or `undefined` when the metadata table (or its schema) is missing. */
export async function readSchemaVersion(
  db: AnyKysely,
  location: SchemaVersionLocation,
): Promise<string | undefined> {
  const table =
    location.schema === undefined
      ? sql.table(location.metadataTable)
      : sql.id(location.schema, location.metadataTable);
  try {
    const result = await sql<{
      value: string;
    }>`select value from ${table} where key = 'schema_version'`.execute(db);
    return result.rows[0]?.value;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/no such table|does not exist/i.test(message)) return undefined;
    throw error;
  }
}

/** Throw the versioning's error when `found` is newer than the supported version. */
export function assertNotNewer(versioning: SchemaVersioning, found: string | undefined): void {
  if (found !== undefined && Number(found) > Number(versioning.supported)) {
    throw versioning.error({ found, supported: versioning.supported });
  }
}

/**
 * Check that the tables are installed and not newer than this package, without changing
 * anything: for stores that do not migrate on first use. Throws the versioning's error with
 * `found: undefined` when they are missing.
 */
export async function checkSchemaVersion(
  db: AnyKysely,
  versioning: SchemaVersioning,
  schema?: string,
): Promise<void> {
  const found = await readSchemaVersion(db, { metadataTable: versioning.metadataTable, schema });
  if (found === undefined) throw versioning.error({ found, supported: versioning.supported });
  assertNotNewer(versioning, found);
}
