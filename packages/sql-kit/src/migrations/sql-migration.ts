import type { AnyKysely } from '../dialect';

/**
 * One schema migration: the shape of Kysely's `Migration`, declared here so that it does not
 * depend on where the installed Kysely exports it (the package root up to 0.28, `kysely/migration`
 * from 0.29). Any Kysely `Migration` is a `SqlMigration` and the other way round.
 */
export interface SqlMigration {
  /** Apply the change. */
  up(db: AnyKysely): Promise<void>;
  /** Undo it; ADK stores never migrate down, so they leave it out. */
  down?(db: AnyKysely): Promise<void>;
}

/** Supplies migrations by name, as Kysely's `MigrationProvider` does. */
export interface SqlMigrationProvider {
  getMigrations(): Promise<Record<string, SqlMigration>>;
}
