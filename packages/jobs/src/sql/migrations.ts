import {
  checkSchemaVersion,
  readSchemaVersion,
  runMigrations,
  type SchemaVersioning,
  type SqlMigration,
} from '@adk/sql-kit';
import { sql } from 'kysely';

import { JobSchemaVersionError } from '../errors/job-schema-version-error';
import type { AnyKysely, JobDialect } from './dialect';
import { JOB_SCHEMA_VERSION, JOBS_TABLE, METADATA_TABLE } from './tables';

/** 001: the jobs table, its claim and unique-key indexes, and `schema_version = '1'`. */
function schemaV1(): SqlMigration {
  const big = 'integer';
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable(METADATA_TABLE)
        .ifNotExists()
        .addColumn('key', 'varchar(255)', (c) => c.primaryKey().notNull())
        .addColumn('value', 'varchar(255)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable(JOBS_TABLE)
        .ifNotExists()
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey().notNull())
        .addColumn('queue', 'varchar(255)', (c) => c.notNull())
        .addColumn('priority', 'integer', (c) => c.notNull())
        .addColumn('app_name', 'varchar(255)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(255)', (c) => c.notNull())
        .addColumn('session_id', 'varchar(255)')
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('state_delta', 'text')
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('run_at', big, (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('max_attempts', 'integer', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('result', 'text')
        .addColumn('unique_key', 'varchar(255)', (c) => c.unique())
        .addColumn('lease_owner', 'varchar(255)')
        .addColumn('lease_expires_at', big)
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .addColumn('started_at', big)
        .addColumn('finished_at', big)
        .execute();
      // Serves claim: due jobs of one queue by priority, then runAt.
      await db.schema
        .createIndex('adk_jobs_claim_idx')
        .ifNotExists()
        .on(JOBS_TABLE)
        .columns(['queue', 'state', 'priority', 'run_at'])
        .execute();
      await sql`insert into ${sql.table(METADATA_TABLE)} (key, value) values ('schema_version', ${JOB_SCHEMA_VERSION}) on conflict do nothing`.execute(
        db,
      );
    },
  };
}

/** The job tables' version row, and the error for a missing or newer schema. */
const versioning: SchemaVersioning = {
  metadataTable: METADATA_TABLE,
  supported: JOB_SCHEMA_VERSION,
  error: ({ found, supported }) => new JobSchemaVersionError({ found, supported }),
};

/** The stored `schema_version`, or `undefined` when the tables are missing. */
export async function readJobSchemaVersion(db: AnyKysely): Promise<string | undefined> {
  return readSchemaVersion(db, versioning);
}

/** Check that the job tables are installed and not newer than this package. */
export async function checkJobSchema(db: AnyKysely): Promise<void> {
  await checkSchemaVersion(db, versioning);
}

/**
 * Create or upgrade the job tables (idempotent). A database whose schema version is newer than
 * this package's is refused with `JobSchemaVersionError` before anything changes. Concurrent
 * callers wait for each other (`BEGIN IMMEDIATE`).
 */
export async function migrateJobTables(db: AnyKysely, dialect: JobDialect): Promise<void> {
  await runMigrations(db, {
    dialect,
    migrations: { '001_adk_jobs_v1': schemaV1() },
    migrationTableName: 'adk_jobs_migration',
    migrationLockTableName: 'adk_jobs_migration_lock',
    versioning,
  });
}
