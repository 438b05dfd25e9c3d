import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.SchemaVersionError');

/**
 * The database's session schema cannot be used by this version of `@adk/session-sql`: it was
 * written by a newer version (refused, never downgraded), or it has not been installed yet (call
 * `migrate()` or pass `autoMigrate: true`). Nothing was changed.
 */
export class SchemaVersionError extends AdkError {
  private readonly [MARKER] = true;
  /** The version found in `adk_internal_metadata`, or `undefined` when the schema is missing. */
  readonly found: string | undefined;
  /** The schema version this package reads and writes. */
  readonly supported: string;

  constructor(options: {
    found: string | undefined;
    supported: string;
    message?: string;
    cause?: unknown;
  }) {
    super('SchemaVersionError', 'SCHEMA_VERSION', {
      message:
        options.message ??
        (options.found === undefined
          ? 'The ADK session tables are not installed in this database. Call migrate() first, or create the service with autoMigrate: true.'
          : `The ADK session schema version "${options.found}" is newer than the supported version "${options.supported}". Upgrade @adk/session-sql.`),
      cause: options.cause,
    });
    this.found = options.found;
    this.supported = options.supported;
  }

  static override isInstance(error: unknown): error is SchemaVersionError {
    return AdkError.hasMarker(error, MARKER);
  }
}
