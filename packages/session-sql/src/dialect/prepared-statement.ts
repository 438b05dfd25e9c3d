import { createHash } from 'node:crypto';

import type { QueryResult, RawBuilder } from 'kysely';

import type { SessionDb } from './dialect-ops';

/** Statement text → its name: the same text always gets the same name. */
const names = new Map<string, string>();

function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `adk_session_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Run `query` on `db` as a **named prepared statement** of the `pg` driver: the first time on a
 * connection, PostgreSQL parses and plans it and keeps it under its name; afterwards the
 * connection sends the name and the values only, and PostgreSQL reuses the parse (and, once it
 * judges a generic plan good enough, the plan). The session store's statements are few and their
 * texts fixed (the values are parameters), so each connection holds a few dozen at most.
 *
 * Kysely's `PostgresDialect` hands the compiled statement to `pg`'s `client.query` as is: a
 * statement whose `sql` is `pg`'s query configuration (`{ name, text }`) reaches `pg` as a named
 * one. Only for the `pg` driver (see `SqlSessionServiceOptions.preparedStatements`).
 */
export async function executePrepared<R>(
  db: SessionDb,
  query: RawBuilder<R>,
): Promise<QueryResult<R>> {
  const compiled = query.compile(db);
  const text = compiled.sql;
  const named = { name: nameOf(text), text, toString: () => text };
  return db.executeQuery<R>({ ...compiled, sql: named as unknown as string });
}
