import { Kysely, MysqlDialect, PostgresDialect } from 'kysely';
import { expect, it } from 'vitest';

import { SqlJobStore, UnsupportedJobDialectError } from '../src';

it('refuses a Kysely over a database it does not drive, naming the adapter', async () => {
  // Never connects: the pool factory is only called on the first query.
  const db = new Kysely({ dialect: new MysqlDialect({ pool: async () => ({}) as never }) });
  let caught: unknown;
  try {
    new SqlJobStore({ db });
  } catch (error) {
    caught = error;
  }
  expect(UnsupportedJobDialectError.isInstance(caught)).toBe(true);
  expect((caught as Error).message).toContain('MysqlAdapter');
  await db.destroy();
});

it('refuses PostgreSQL, pointing to GraphileJobStore', async () => {
  const db = new Kysely({ dialect: new PostgresDialect({ pool: async () => ({}) as never }) });
  let caught: unknown;
  try {
    new SqlJobStore({ db });
  } catch (error) {
    caught = error;
  }
  expect(UnsupportedJobDialectError.isInstance(caught)).toBe(true);
  expect((caught as Error).message).toContain('GraphileJobStore');
  await db.destroy();
});
