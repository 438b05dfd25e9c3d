import { randomBytes } from 'node:crypto';

import pg from 'pg';

import { POSTGRES_URL } from './postgres-url';

/**
 * A fresh schema name for one test file, `adk_test_<label>_<random>`, safe to use unquoted
 * (lower-case letters, digits and underscores only).
 */
export function postgresSchemaName(label = ''): string {
  const prefix = label ? `adk_test_${label}_` : 'adk_test_';
  return `${prefix}${randomBytes(5).toString('hex')}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
}

async function administer(statement: string, url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function quote(schema: string): string {
  return `"${schema.replaceAll('"', '""')}"`;
}

/** Create `schema` on the test server (nothing happens when it exists); `url`: another database. */
export async function createPostgresSchema(schema: string, url = POSTGRES_URL): Promise<void> {
  await administer(`create schema if not exists ${quote(schema)}`, url);
}

/** Drop `schema` and everything in it (nothing happens when it does not exist). */
export async function dropPostgresSchema(schema: string, url = POSTGRES_URL): Promise<void> {
  await administer(`drop schema if exists ${quote(schema)} cascade`, url);
}
