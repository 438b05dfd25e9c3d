import { PostgresAdapter, SqliteAdapter, type Kysely } from 'kysely';

import type { DialectKind } from './dialect-ops';

/**
 * Which database a Kysely instance talks to, from its adapter. Returns `undefined` for other
 * databases (pass `dialect` explicitly when a wrapper hides the adapter).
 */
export function detectDialect(db: Kysely<unknown>): DialectKind | undefined {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof SqliteAdapter) return 'sqlite';
  if (adapter instanceof PostgresAdapter) return 'postgres';
  const name = adapter.constructor.name.toLowerCase();
  if (name.includes('sqlite')) return 'sqlite';
  if (name.includes('postgres')) return 'postgres';
  return undefined;
}
