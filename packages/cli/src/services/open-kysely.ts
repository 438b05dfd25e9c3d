import { parseDatabaseUrl } from '@adk/session-sql';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** A Kysely instance opened from a `sqlite:` or `postgres://` URL, owned by the caller. */
export async function openKysely(url: string): Promise<Kysely<unknown>> {
  const parsed = parseDatabaseUrl(url);
  if (parsed.kind === 'sqlite') {
    const { default: Database } = await import('better-sqlite3');
    if (parsed.path !== ':memory:') mkdirSync(dirname(parsed.path), { recursive: true });
    const database = new Database(parsed.path);
    database.pragma('busy_timeout = 5000');
    return new Kysely({ dialect: new SqliteDialect({ database }) });
  }
  const pg = await import('pg');
  const pool = new pg.default.Pool({ connectionString: parsed.connectionString, max: 5 });
  pool.on('error', () => undefined); // a dropped idle connection is replaced on the next query
  return new Kysely({ dialect: new PostgresDialect({ pool }) });
}

/** A URL with its password masked, for messages. */
export function maskUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
