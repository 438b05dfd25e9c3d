import { InvalidArgumentError } from '@adk/core';

import { parseSqliteSynchronous, type SqliteSynchronous } from '../sqlite';

/** A parsed database URL (see {@link parseDatabaseUrl}). */
export type DatabaseUrl =
  | { kind: 'sqlite'; path: string; synchronous?: SqliteSynchronous }
  | { kind: 'postgres'; connectionString: string };

/**
 * `url` with the password of its `user:password@` part replaced by `***`, for messages and logs.
 *
 * @example
 * ```ts
 * maskDatabaseUrl('postgres://app:secret@db:5432/adk'); // 'postgres://app:***@db:5432/adk'
 * ```
 */
export function maskDatabaseUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}

/** `?synchronous=normal` at the end of a SQLite URL: the only parameter a SQLite URL takes. */
function sqliteParameters(url: string, query: string): { synchronous?: SqliteSynchronous } {
  const parameters: { synchronous?: SqliteSynchronous } = {};
  for (const [name, value] of new URLSearchParams(query)) {
    if (name !== 'synchronous') {
      throw new InvalidArgumentError({
        message: `Unknown parameter "${name}" in SQLite URL "${url}": the only one is synchronous=off|normal|full|extra.`,
        argument: 'url',
      });
    }
    parameters.synchronous = parseSqliteSynchronous(value, 'url');
  }
  return parameters;
}

/**
 * Parse `sqlite:./path.db`, `sqlite:/abs.db`, `sqlite:///abs.db`, `sqlite::memory:` (each
 * optionally followed by `?synchronous=off|normal|full|extra`), `postgres://...` and
 * `postgresql://...`. Throws `InvalidArgumentError` (argument `url`, the password masked) for
 * anything else.
 *
 * @example
 * ```ts
 * parseDatabaseUrl('sqlite:./data/adk.db?synchronous=normal');
 * // { kind: 'sqlite', path: './data/adk.db', synchronous: 'normal' }
 * ```
 */
export function parseDatabaseUrl(url: string): DatabaseUrl {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    return { kind: 'postgres', connectionString: url };
  }
  if (url.startsWith('sqlite:')) {
    let path = url.slice('sqlite:'.length);
    if (path.startsWith('//')) path = path.slice(2);
    const question = path.indexOf('?');
    const parameters = question === -1 ? {} : sqliteParameters(url, path.slice(question + 1));
    if (question !== -1) path = path.slice(0, question);
    if (path === '')
      throw new InvalidArgumentError({
        message: `No file in SQLite URL "${url}".`,
        argument: 'url',
      });
    return { kind: 'sqlite', path, ...parameters };
  }
  throw new InvalidArgumentError({
    message: `Unsupported database URL "${maskDatabaseUrl(url)}": use sqlite:./file.db, sqlite::memory: or postgres://...`,
    argument: 'url',
  });
}
