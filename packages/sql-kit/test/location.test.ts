import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import { createSchemaIfMissing, inSchema, qualifiedTable } from '../src';
import { testBackends } from './backends';

const backends = await testBackends();

describe('inSchema and qualifiedTable', () => {
  for (const backend of backends) {
    describe.skipIf(!backend.available)(backend.label, () => {
      it('without a schema, use the table the connection finds', async () => {
        const fresh = await backend.fresh();
        const db = inSchema(fresh.db, undefined);
        expect(db).toBe(fresh.db);
        await db.schema.createTable('kit_here').addColumn('id', 'integer').execute();
        await db.insertInto('kit_here').values({ id: 1 }).execute();
        const { rows } = await sql<{
          n: number | string;
        }>`select count(*) as n from ${qualifiedTable('kit_here', undefined)}`.execute(fresh.db);
        expect(Number(rows[0]?.n)).toBe(1);
        expect(await fresh.tables()).toEqual(['kit_here']);
      });

      if (backend.dialect !== 'postgres') return; // schemas are PostgreSQL's
      it('with a schema, query builder and raw SQL both reach that schema’s table, not the default one', async () => {
        const fresh = await backend.fresh();
        const other = backend.newSchema();
        await createSchemaIfMissing(fresh.db, other);
        for (const schema of [undefined, other]) {
          await inSchema(fresh.db, schema)
            .schema.createTable('kit_twin')
            .addColumn('id', 'integer')
            .execute();
        }
        await inSchema(fresh.db, other).insertInto('kit_twin').values({ id: 7 }).execute();
        const count = async (schema: string | undefined) =>
          Number(
            (
              await sql<{
                n: string;
              }>`select count(*) as n from ${qualifiedTable('kit_twin', schema)}`.execute(fresh.db)
            ).rows[0]?.n,
          );
        expect(await count(other)).toBe(1);
        expect(await count(undefined)).toBe(0);
        expect(await fresh.tables(other)).toEqual(['kit_twin']);
      });
    });
  }
});
