import { InvalidArgumentError } from '@adk/core';
import { dropPostgresSchema, postgresKysely, postgresSchemaName } from '@adk/test-databases';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';

import { checkSchemaOption, createSchemaIfMissing } from '../src';
import { testBackends } from './backends';

const postgres = (await testBackends()).find((backend) => backend.dialect === 'postgres')!;

describe('checkSchemaOption', () => {
  it('accepts no schema anywhere, and a named schema on PostgreSQL', () => {
    expect(() => checkSchemaOption('sqlite', undefined)).not.toThrow();
    expect(() => checkSchemaOption('postgres', undefined)).not.toThrow();
    expect(() => checkSchemaOption('postgres', 'tenant_a')).not.toThrow();
  });

  it.each([
    ['sqlite', 'tenant_a', 'schema is supported on PostgreSQL only.'],
    ['postgres', '', 'schema must be a non-empty PostgreSQL schema name.'],
    ['sqlite', '', 'schema must be a non-empty PostgreSQL schema name.'],
  ] as const)('refuses %s with schema %j: InvalidArgumentError', (dialect, schema, message) => {
    let caught: unknown;
    try {
      checkSchemaOption(dialect, schema);
    } catch (error) {
      caught = error;
    }
    expect(InvalidArgumentError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ message, argument: 'schema' });
  });
});

describe.skipIf(!postgres.available)('createSchemaIfMissing (PostgreSQL)', () => {
  const schemas: string[] = [];
  const first = postgresKysely('public', { max: 1 });
  const second = postgresKysely('public', { max: 1 });
  afterAll(async () => {
    await first.destroy();
    await second.destroy();
    for (const schema of schemas) await dropPostgresSchema(schema);
  });
  const exists = async (schema: string) =>
    (
      await sql<{
        n: number;
      }>`select count(*)::int as n from information_schema.schemata where schema_name = ${schema}`.execute(
        first,
      )
    ).rows[0]!.n === 1;

  it('creates a schema, and does nothing when it exists', async () => {
    const schema = postgresSchemaName('sql_kit');
    schemas.push(schema);
    await createSchemaIfMissing(first, schema);
    await createSchemaIfMissing(first, schema);
    expect(await exists(schema)).toBe(true);
  });

  it('tolerates another session creating the same new schema at the same moment', async () => {
    for (let round = 0; round < 20; round++) {
      const schema = postgresSchemaName('sql_kit_race');
      schemas.push(schema);
      await Promise.all([
        createSchemaIfMissing(first, schema),
        createSchemaIfMissing(second, schema),
      ]);
      expect(await exists(schema)).toBe(true);
    }
  });

  it('throws any other error', async () => {
    await expect(createSchemaIfMissing(first, '')).rejects.toMatchObject({ code: '42601' });
  });
});
