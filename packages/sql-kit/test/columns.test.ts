import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import { decodeJsonColumn, encodeJsonColumn, epochMillis } from '../src';
import { testBackends } from './backends';

const backends = await testBackends();

describe('JSON columns', () => {
  for (const backend of backends) {
    describe.skipIf(!backend.available)(backend.label, () => {
      it('store an object or an array as JSON and read back the same value', async () => {
        const { db, dialect } = await backend.fresh();
        await db.schema
          .createTable('kit_json')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('doc', dialect === 'postgres' ? 'jsonb' : 'text')
          .addColumn('note', 'text')
          .execute();
        const values = [{ a: [1, 'two', null], b: { c: true } }, ['x', { y: 1 }], {}];
        for (const [id, value] of values.entries()) {
          await db
            .insertInto('kit_json')
            .values({ id, doc: encodeJsonColumn(value), note: encodeJsonColumn(value) })
            .execute();
        }
        await db.insertInto('kit_json').values({ id: 9, doc: null, note: null }).execute();
        const rows = await db.selectFrom('kit_json').selectAll().orderBy('id').execute();
        expect(rows.map((row) => decodeJsonColumn(row.doc))).toEqual([...values, null]);
        expect(rows.map((row) => decodeJsonColumn(row.note))).toEqual([...values, null]);
        if (dialect === 'postgres') {
          // Stored as JSON, not as a PostgreSQL array: the database sees the array's elements.
          const { rows: kinds } = await sql<{
            kind: string;
          }>`select jsonb_typeof(doc) as kind from kit_json where id = 1`.execute(db);
          expect(kinds).toEqual([{ kind: 'array' }]);
        }
      });
    });
  }

  it('reading text that is not JSON throws the SyntaxError of JSON.parse', () => {
    expect(() => decodeJsonColumn('{oops')).toThrow(SyntaxError);
  });
});

describe('epochMillis', () => {
  const ms = Date.UTC(2024, 0, 2, 3, 4, 5, 123);

  for (const backend of backends) {
    describe.skipIf(!backend.available)(backend.label, () => {
      it('reads the time columns the stores write, as the driver returns them', async () => {
        const { db, dialect } = await backend.fresh();
        if (dialect === 'postgres') {
          const { rows } = await sql<{
            big: unknown;
            tz: unknown;
            naive: unknown;
            epoch: unknown;
          }>`select ${ms}::bigint as big, ${new Date(ms).toISOString()}::timestamptz as tz,
                    '2024-01-02 03:04:05.123'::timestamp::text as naive,
                    (extract(epoch from ${new Date(ms).toISOString()}::timestamptz) * 1000)::float8 as epoch`.execute(
            db,
          );
          const row = rows[0]!;
          expect(typeof row.big).toBe('string');
          expect(row.tz).toBeInstanceOf(Date);
          expect([row.big, row.tz, row.naive, row.epoch].map(epochMillis)).toEqual([
            ms,
            ms,
            ms,
            ms,
          ]);
        } else {
          await db.schema
            .createTable('kit_times')
            .addColumn('at', 'integer')
            .addColumn('text_at', 'text')
            .execute();
          // An INTEGER epoch as this package's stores write it; text as SQLAlchemy writes it.
          await db
            .insertInto('kit_times')
            .values({ at: ms, text_at: '2024-01-02 03:04:05.123000' })
            .execute();
          const row = await db.selectFrom('kit_times').selectAll().executeTakeFirstOrThrow();
          expect([row.at, row.text_at].map(epochMillis)).toEqual([ms, ms]);
        }
      });
    });
  }

  it('reads ISO text with a zone as that zone, and anything else as NaN', () => {
    expect(epochMillis('2024-01-02T04:04:05.123+01:00')).toBe(ms);
    expect(epochMillis('2024-01-02T03:04:05.123Z')).toBe(ms);
    expect(epochMillis(BigInt(ms))).toBe(ms);
    expect(epochMillis('')).toBeNaN();
    expect(epochMillis('soon')).toBeNaN();
    expect(epochMillis(null)).toBeNaN();
  });
});
