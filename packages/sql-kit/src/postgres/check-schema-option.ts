import { InvalidArgumentError } from '@adk/core';

import type { SqlDialect } from '../dialect';

/**
 * Validate a store's PostgreSQL `schema` option: absent, or a non-empty name on PostgreSQL.
 * Throws `InvalidArgumentError` (argument `schema`) for `''`, or for any schema on SQLite.
 *
 * @example
 * ```ts
 * checkSchemaOption(dialect, options.schema);
 * const scoped = options.schema === undefined ? db : db.withSchema(options.schema);
 * ```
 */
export function checkSchemaOption(dialect: SqlDialect, schema: string | undefined): void {
  if (schema === undefined || (dialect === 'postgres' && schema !== '')) return;
  throw new InvalidArgumentError({
    message:
      schema === ''
        ? 'schema must be a non-empty PostgreSQL schema name.'
        : 'schema is supported on PostgreSQL only.',
    argument: 'schema',
  });
}
