import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.KyselyMigratorMissingError');

/**
 * The installed Kysely exports no `Migrator`, neither at its root (Kysely 0.28) nor at
 * `kysely/migration` (Kysely 0.29): a Kysely version this release of `@adk/sql-kit` does not know.
 */
export class KyselyMigratorMissingError extends AdkError {
  private readonly [MARKER] = true;

  constructor(options: { cause?: unknown }) {
    super('KyselyMigratorMissingError', 'KYSELY_MIGRATOR_MISSING', {
      message:
        'The installed kysely exports no Migrator (looked at "kysely" and "kysely/migration"). ADK supports kysely 0.28 and 0.29: npm install kysely@0.29 (Node 22 or later) or kysely@0.28 (Node 20).',
      cause: options.cause,
    });
  }

  static override isInstance(error: unknown): error is KyselyMigratorMissingError {
    return AdkError.hasMarker(error, MARKER);
  }
}
