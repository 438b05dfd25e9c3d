import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import { runMigrations } from '../src';
import { testBackends } from './backends';
import {
  NOTES_MIGRATIONS,
  NOTES_TABLE,
  notesMigrations,
  notesVersioning,
} from './fixtures/notes-migrations';

const postgres = (await testBackends()).find((backend) => backend.dialect === 'postgres')!;

describe.skipIf(!postgres.available)(
  'runMigrations while other schemas are dropped (PostgreSQL)',
  () => {
    it('succeeds every time although the introspection meets schemas being dropped', async () => {
      const fresh = await postgres.fresh();
      const churnDb = (await postgres.fresh()).db;
      // Another session creates and drops schemas with tables in a tight loop, as a parallel test
      // run or another app's clean-up would.
      let churning = true;
      const churn = (async () => {
        for (let index = 0; churning; index++) {
          const name = `${postgres.newSchema()}_churn_${index}`;
          await sql`create schema ${sql.id(name)}`.execute(churnDb);
          await sql`create table ${sql.id(name, 't')} (id serial primary key, v text)`.execute(
            churnDb,
          );
          await sql`drop schema ${sql.id(name)} cascade`.execute(churnDb);
        }
      })();
      const failures: unknown[] = [];
      try {
        for (let round = 0; round < 40; round++) {
          const schema = postgres.newSchema();
          await runMigrations(fresh.db, {
            dialect: 'postgres',
            schema,
            migrations: notesMigrations(schema),
            migrationTableName: NOTES_MIGRATIONS,
            migrationLockTableName: `${NOTES_MIGRATIONS}_lock`,
            versioning: notesVersioning,
          }).catch((error: unknown) => failures.push(error));
          // The migration's own error first: it says why the table is missing.
          expect(failures, `round ${round}`).toEqual([]);
          expect(await fresh.tables(schema)).toContain(NOTES_TABLE);
        }
      } finally {
        churning = false;
        await churn;
      }
      expect(failures).toEqual([]);
    });
  },
);
