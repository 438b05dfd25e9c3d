import * as kysely from 'kysely';

import type { AnyKysely } from '../dialect';
import { KyselyMigratorMissingError } from './kysely-migrator-missing-error';
import type { SqlMigrationProvider } from './sql-migration';

/** What {@link runMigrations} uses of Kysely's `Migrator`, identical in Kysely 0.28 and 0.29. */
export interface MigratorLike {
  migrateToLatest(): Promise<{
    error?: unknown;
    results?: readonly { status: string; migrationName: string }[];
  }>;
}

/** The constructor of Kysely's `Migrator`, as far as ADK calls it. */
export type MigratorConstructor = new (props: {
  db: AnyKysely;
  provider: SqlMigrationProvider;
  migrationTableName: string;
  migrationLockTableName: string;
  migrationTableSchema?: string;
}) => MigratorLike;

/**
 * Kysely 0.29 moved `Migrator` from the package root to `kysely/migration`, which 0.28 does not
 * have. The root is read through a namespace import (a named import of a missing export fails
 * the whole module at load time), then the subpath is tried. The specifier is a variable so that
 * type checking against Kysely 0.28 does not look for the subpath.
 */
const MIGRATION_SUBPATH = 'kysely/migration';

let migrator: Promise<MigratorConstructor> | undefined;

/** Kysely's `Migrator`, from wherever the installed Kysely exports it (resolved once). */
export function loadMigrator(): Promise<MigratorConstructor> {
  migrator ??= (async () => {
    const fromRoot = (kysely as Record<string, unknown>)['Migrator'];
    if (typeof fromRoot === 'function') return fromRoot as MigratorConstructor;
    let fromSubpath: unknown;
    try {
      fromSubpath = ((await import(MIGRATION_SUBPATH)) as Record<string, unknown>)['Migrator'];
    } catch (cause) {
      throw new KyselyMigratorMissingError({ cause });
    }
    if (typeof fromSubpath !== 'function') throw new KyselyMigratorMissingError({});
    return fromSubpath as MigratorConstructor;
  })();
  migrator.catch(() => {
    migrator = undefined;
  });
  return migrator;
}
