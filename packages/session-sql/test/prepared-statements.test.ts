import { createEvent, userContent } from '@adk/core';
import {
  POSTGRES_URL,
  createPostgresSchema,
  dropPostgresSchema,
  postgresSchemaName,
  postgresUnavailable,
} from '@adk/test-databases';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SqlSessionService } from '../src';
import { namedStatement, ShapedStatements } from '../src/dialect/prepared-statement';

const unavailable = await postgresUnavailable();

describe.skipIf(unavailable)('prepared statements on PostgreSQL', () => {
  const schema = postgresSchemaName();
  beforeAll(() => createPostgresSchema(schema));
  afterAll(() => dropPostgresSchema(schema));

  /** Append and read twice on a one-connection pool; the statements that connection prepared. */
  async function preparedAfterTurns(options: { preparedStatements?: boolean }) {
    const service = await SqlSessionService.fromUrl(POSTGRES_URL, {
      schema,
      autoMigrate: true,
      poolSize: 1,
      ...options,
    });
    try {
      const session = await service.createSession({ appName: 'p', userId: 'u' });
      for (const text of ['one', 'two']) {
        await service.appendEvent({
          session,
          event: createEvent({ author: 'user', invocationId: 'i', content: userContent(text) }),
        });
        const read = await service.getSession({ appName: 'p', userId: 'u', sessionId: session.id });
        expect(read?.events.at(-1)?.content).toEqual(userContent(text));
      }
      const { rows } = await sql<{ name: string }>`
        select name from pg_prepared_statements order by name`.execute(service.database);
      return rows.map((row) => row.name);
    } finally {
      await service.close();
    }
  }

  it('prepares the append and the read once per connection with fromUrl', async () => {
    const names = await preparedAfterTurns({});
    // One append statement and the two reads (the first whole, the next incremental), each
    // prepared once although each ran twice.
    expect(names.length).toBeGreaterThanOrEqual(2);
    expect(names.every((name) => name.startsWith('adk_session_'))).toBe(true);
    expect(new Set(names).size).toBe(names.length);
  });

  it('prepares nothing with preparedStatements: false', async () => {
    expect(await preparedAfterTurns({ preparedStatements: false })).toEqual([]);
  });
});

describe('namedStatement', () => {
  it("reaches pg's query as a named statement with the call's values, and reads as its text", () => {
    const statement = namedStatement('adk_session_test', 'select $1::int as n');
    // What pg's client builds from `client.query(statement, values)` (it copies the configuration).
    const query = new pg.Query(statement, [7]) as unknown as pg.QueryConfig;
    expect([query.name, query.text, query.values]).toEqual([
      'adk_session_test',
      'select $1::int as n',
      [7],
    ]);
    expect(String(statement)).toBe('select $1::int as n');
    // Nothing of a call is left on the shared statement.
    expect(Object.keys(statement)).toEqual([]);
  });
});

describe.skipIf(unavailable)('statements compiled once per shape', () => {
  for (const prepared of [false, true]) {
    it(`fills each call's values into the shape compiled at the first call (prepared: ${prepared})`, async () => {
      const service = await SqlSessionService.fromUrl(POSTGRES_URL, { poolSize: 1 });
      try {
        const statements = new ShapedStatements(prepared);
        let builds = 0;
        const run = (shape: string, args: Record<string, unknown>) =>
          statements.execute(
            service.database,
            shape,
            (slot) => {
              builds++;
              const tail = shape === 'with c' ? sql`, ${slot('c')}::int as c` : sql``;
              return sql<{ a: string; b: number; again: string; c?: number }>`
                select ${slot('a')}::text as a, ${slot('b')}::int as b,
                       ${slot('a')}::text as again, ${'fixed'}::text as fixed${tail}`;
            },
            args,
          );
        expect((await run('plain', { a: 'x', b: 1 })).rows).toEqual([
          { a: 'x', b: 1, again: 'x', fixed: 'fixed' },
        ]);
        expect((await run('plain', { a: 'y', b: 2 })).rows).toEqual([
          { a: 'y', b: 2, again: 'y', fixed: 'fixed' },
        ]);
        expect((await run('with c', { a: 'z', b: 3, c: 4 })).rows).toEqual([
          { a: 'z', b: 3, again: 'z', fixed: 'fixed', c: 4 },
        ]);
        expect((await run('with c', { a: 'w', b: 5, c: 6 })).rows).toEqual([
          { a: 'w', b: 5, again: 'w', fixed: 'fixed', c: 6 },
        ]);
        // Built and compiled once per shape, whatever the values.
        expect(builds).toBe(2);
      } finally {
        await service.close();
      }
    });
  }
});
