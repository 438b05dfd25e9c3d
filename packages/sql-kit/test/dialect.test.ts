import { postgresKysely, sqliteKysely, temporaryDirectory } from '@adk/test-databases';
import { Kysely, MysqlAdapter, MysqlDialect, sql, type DialectAdapter } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';

import {
  detectSqlDialect,
  isUniqueViolation,
  requireSqlDialect,
  retryOnUniqueViolation,
  type AnyKysely,
} from '../src';
import { testBackends } from './backends';

const backends = await testBackends();
const temp = temporaryDirectory('adk-sql-kit-dialect-');
const opened: AnyKysely[] = [];
afterAll(async () => {
  await Promise.all(opened.map((db) => db.destroy()));
  temp.remove();
});

function open<T extends AnyKysely>(db: T): T {
  opened.push(db);
  return db;
}

/** A Kysely over MySQL; never connects (the pool factory is only called on the first query). */
function mysqlKysely(): AnyKysely {
  return open(new Kysely({ dialect: new MysqlDialect({ pool: async () => ({}) as never }) }));
}

/** An adapter that is not Kysely's SQLite class but says it is one (as a second Kysely copy's would). */
class ForeignSqliteAdapter extends MysqlAdapter {}
class ForeignSqliteDialect extends MysqlDialect {
  override createAdapter(): DialectAdapter {
    return new ForeignSqliteAdapter();
  }
}

describe('detectSqlDialect', () => {
  it('tells SQLite and PostgreSQL from the Kysely adapter, and nothing else', () => {
    expect(detectSqlDialect(open(sqliteKysely(temp.file('a.db'))))).toBe('sqlite');
    expect(detectSqlDialect(open(postgresKysely('public')))).toBe('postgres');
    expect(detectSqlDialect(mysqlKysely())).toBeUndefined();
  });

  it('matches an adapter by class name only when asked', () => {
    const db = open(
      new Kysely({ dialect: new ForeignSqliteDialect({ pool: async () => ({}) as never }) }),
    );
    expect(detectSqlDialect(db)).toBeUndefined();
    expect(detectSqlDialect(db, { matchAdapterName: true })).toBe('sqlite');
    expect(detectSqlDialect(mysqlKysely(), { matchAdapterName: true })).toBeUndefined();
  });
});

describe('requireSqlDialect', () => {
  const unsupported = (adapter: string) => new RangeError(`no ${adapter}`);

  it('returns the detected dialect, or the override without looking', () => {
    expect(requireSqlDialect(open(sqliteKysely(temp.file('b.db'))), { unsupported })).toBe(
      'sqlite',
    );
    expect(requireSqlDialect(mysqlKysely(), { override: 'postgres', unsupported })).toBe(
      'postgres',
    );
  });

  it('throws the caller’s error, naming the adapter, for any other database', () => {
    expect(() => requireSqlDialect(mysqlKysely(), { unsupported })).toThrow(
      new RangeError('no MysqlAdapter'),
    );
  });
});

describe('isUniqueViolation', () => {
  for (const backend of backends) {
    describe.skipIf(!backend.available)(backend.label, () => {
      it('is true for primary-key and unique violations only', async () => {
        const { db } = await backend.fresh();
        await db.schema
          .createTable('kit_unique')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('code', 'varchar(8)', (c) => c.unique())
          .addColumn('label', 'varchar(8)', (c) => c.notNull())
          .execute();
        await db.insertInto('kit_unique').values({ id: 1, code: 'a', label: 'x' }).execute();
        const failure = async (values: Record<string, unknown>) => {
          try {
            await db.insertInto('kit_unique').values(values).execute();
          } catch (error) {
            return error;
          }
          throw new TypeError('expected a database error');
        };
        expect(isUniqueViolation(await failure({ id: 1, code: 'b', label: 'x' }))).toBe(true);
        expect(isUniqueViolation(await failure({ id: 2, code: 'a', label: 'x' }))).toBe(true);
        expect(isUniqueViolation(await failure({ id: 3, code: 'c', label: null }))).toBe(false);
        expect(isUniqueViolation(undefined)).toBe(false);
        expect(isUniqueViolation(new TypeError('x'))).toBe(false);
      });
    });
  }
});

describe('retryOnUniqueViolation', () => {
  for (const backend of backends) {
    describe.skipIf(!backend.available)(backend.label, () => {
      it('runs the work again after a lost insert race, up to the attempts given', async () => {
        const { db } = await backend.fresh();
        await db.schema
          .createTable('kit_versions')
          .addColumn('version', 'integer', (c) => c.primaryKey())
          .execute();
        // The next version, read and written in two statements: a concurrent writer took each
        // number the first attempts read, as if it had won the race.
        const stolen = [0, 1];
        let attempts = 0;
        const insertNext = async () => {
          attempts++;
          const next = Number(
            (
              await db
                .selectFrom('kit_versions')
                .select(sql<number>`coalesce(max(version), -1) + 1`.as('next'))
                .executeTakeFirstOrThrow()
            ).next,
          );
          const thief = stolen.shift();
          if (thief !== undefined)
            await db.insertInto('kit_versions').values({ version: thief }).execute();
          await db.insertInto('kit_versions').values({ version: next }).execute();
          return next;
        };
        expect(await retryOnUniqueViolation(5, insertNext)).toBe(2);
        expect(attempts).toBe(3);

        stolen.push(3, 4);
        attempts = 0;
        const lost = await retryOnUniqueViolation(2, insertNext).catch((error: unknown) => error);
        expect(isUniqueViolation(lost)).toBe(true);
        expect(attempts).toBe(2);
      });
    });
  }

  it('throws any other error at once', async () => {
    let attempts = 0;
    const failure = new TypeError('no');
    await expect(
      retryOnUniqueViolation(5, async () => {
        attempts++;
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(attempts).toBe(1);
  });
});
