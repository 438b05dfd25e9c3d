import { createPostgresSchema, postgresKysely } from '@adk/test-databases';
import { sql, type Migration } from 'kysely';
import { describe, expect, it } from 'vitest';

import {
  checkSchemaVersion,
  readSchemaVersion,
  runMigrations,
  type AnyKysely,
  type RunMigrationsOptions,
} from '../src';
import { testBackends, type FreshDatabase } from './backends';
import {
  NOTES_METADATA,
  NOTES_MIGRATIONS,
  NOTES_TABLE,
  NotesSchemaError,
  notesMigrations,
  notesVersioning,
} from './fixtures/notes-migrations';

const backends = await testBackends();

function notesOptions(fresh: FreshDatabase, schema: string | undefined): RunMigrationsOptions {
  return {
    dialect: fresh.dialect,
    schema,
    migrations: notesMigrations(schema),
    migrationTableName: NOTES_MIGRATIONS,
    migrationLockTableName: `${NOTES_MIGRATIONS}_lock`,
    versioning: notesVersioning,
  };
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new TypeError('expected a rejection');
}

for (const backend of backends) {
  const placements =
    backend.dialect === 'postgres'
      ? [
          { label: 'the current schema', schema: () => undefined },
          { label: 'the schema option', schema: () => backend.newSchema() },
        ]
      : [{ label: 'the file', schema: () => undefined }];

  for (const placement of placements) {
    describe.skipIf(!backend.available)(`${backend.label}, tables in ${placement.label}`, () => {
      it('runs each migration once, records it in the bookkeeping table, and is idempotent', async () => {
        const fresh = await backend.fresh();
        const schema = placement.schema();
        let runs = 0;
        const migrations: Record<string, Migration> = {
          ...notesMigrations(schema),
          '0002_count': {
            async up() {
              runs++;
            },
          },
        };
        const options = { ...notesOptions(fresh, schema), migrations };
        await runMigrations(fresh.db, options);
        await runMigrations(fresh.db, options);
        expect(runs).toBe(1);
        const tables = await fresh.tables(schema);
        expect(tables).toEqual(
          expect.arrayContaining([NOTES_TABLE, NOTES_METADATA, NOTES_MIGRATIONS]),
        );
        const scoped = schema === undefined ? fresh.db : fresh.db.withSchema(schema);
        const names = await scoped
          .selectFrom(NOTES_MIGRATIONS)
          .select('name')
          .orderBy('name')
          .execute();
        expect(names).toEqual([{ name: '0001_create_notes' }, { name: '0002_count' }]);
        expect(await readSchemaVersion(fresh.db, { metadataTable: NOTES_METADATA, schema })).toBe(
          '1',
        );
        await checkSchemaVersion(fresh.db, notesVersioning, schema);
        if (schema !== undefined) expect(await fresh.tables()).toEqual([]);
      });

      it('refuses a newer schema version before running anything', async () => {
        const fresh = await backend.fresh();
        const schema = placement.schema();
        await runMigrations(fresh.db, notesOptions(fresh, schema));
        const metadata =
          schema === undefined ? sql.table(NOTES_METADATA) : sql.id(schema, NOTES_METADATA);
        await sql`update ${metadata} set value = '2' where key = 'schema_version'`.execute(
          fresh.db,
        );
        let ran = false;
        const options = {
          ...notesOptions(fresh, schema),
          migrations: {
            ...notesMigrations(schema),
            '0002_never': {
              async up() {
                ran = true;
              },
            },
          },
        };
        const error = await caught(runMigrations(fresh.db, options));
        expect(error).toBeInstanceOf(NotesSchemaError);
        expect(error).toMatchObject({ found: '2', supported: '1', migrationError: undefined });
        expect(ran).toBe(false);
        expect(await caught(checkSchemaVersion(fresh.db, notesVersioning, schema))).toMatchObject({
          found: '2',
        });
      });

      it('refuses a database migrated by a newer version (an unknown migration in the bookkeeping)', async () => {
        const fresh = await backend.fresh();
        const schema = placement.schema();
        const options = notesOptions(fresh, schema);
        await runMigrations(fresh.db, {
          ...options,
          migrations: { ...options.migrations, '0002_future': { async up() {} } },
        });
        const error = await caught(runMigrations(fresh.db, options));
        expect(error).toBeInstanceOf(NotesSchemaError);
        const typed = error as NotesSchemaError;
        expect(typed.found).toBe('1');
        expect(String(typed.migrationError)).toContain('corrupted migrations');
      });

      it('reports a missing schema as found: undefined, without creating anything', async () => {
        const fresh = await backend.fresh();
        const schema = placement.schema();
        expect(
          await readSchemaVersion(fresh.db, { metadataTable: NOTES_METADATA, schema }),
        ).toBeUndefined();
        const error = await caught(checkSchemaVersion(fresh.db, notesVersioning, schema));
        expect(error).toMatchObject({ found: undefined, supported: '1' });
        expect(await fresh.tables(schema)).toEqual([]);
      });

      it('rolls a failed migration back and throws Kysely’s error, or the mapped one', async () => {
        const fresh = await backend.fresh();
        const schema = placement.schema();
        const failure = new TypeError('migration broke');
        const failing: Migration = {
          async up(root: AnyKysely) {
            const db = schema === undefined ? root : root.withSchema(schema);
            await db.schema.createTable('kit_half_done').addColumn('id', 'integer').execute();
            throw failure;
          },
        };
        const options = {
          ...notesOptions(fresh, schema),
          migrations: { ...notesMigrations(schema), '0002_failing': failing },
        };
        expect(await caught(runMigrations(fresh.db, options))).toBe(failure);
        expect(await fresh.tables(schema)).not.toContain('kit_half_done');

        const mapped = await caught(
          runMigrations(fresh.db, {
            ...options,
            migrationError: ({ error, migrationName }) =>
              new RangeError(`${migrationName}: ${(error as Error).message}`),
          }),
        );
        expect(mapped).toBeInstanceOf(RangeError);
        expect((mapped as Error).message).toBe('0002_failing: migration broke');
        expect(await fresh.tables(schema)).not.toContain('kit_half_done');
      });
    });
  }
}

const postgres = backends.find((backend) => backend.dialect === 'postgres')!;

describe.skipIf(!postgres.available)('PostgreSQL bookkeeping', () => {
  it('is pinned to the current schema: another schema’s tables on the search path are not taken for this one’s', async () => {
    const first = await postgres.fresh();
    await runMigrations(first.db, notesOptions(first, undefined));
    // A second schema first on the search path, the first one's tables still visible after it.
    const second = postgres.newSchema();
    await createPostgresSchema(second);
    const db = postgresKysely(`${second},${first.home!}`, { max: 2 });
    try {
      await runMigrations(db, notesOptions(first, undefined));
      const names = await db
        .withSchema(second)
        .selectFrom(NOTES_MIGRATIONS)
        .select('name')
        .execute();
      expect(names).toEqual([{ name: '0001_create_notes' }]);
      expect(await first.tables(second)).toEqual(
        expect.arrayContaining([NOTES_TABLE, NOTES_METADATA]),
      );
    } finally {
      await db.destroy();
    }
  });
});
