import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.JobSchemaVersionError');

/**
 * The job tables cannot be used by this version of `@adk/jobs`: written by a newer version
 * (refused, never downgraded), or not installed (call `migrate()` or pass `autoMigrate: true`).
 * Nothing was changed.
 */
export class JobSchemaVersionError extends AdkError {
  private readonly [MARKER] = true;
  /** The version found in the database, or `undefined` when the tables are missing. */
  readonly found: string | undefined;
  /** The schema version this package reads and writes. */
  readonly supported: string;

  constructor(options: { found: string | undefined; supported: string }) {
    super('JobSchemaVersionError', 'JOB_SCHEMA_VERSION', {
      message:
        options.found === undefined
          ? 'The ADK job tables are not installed in this database. Call migrate() first, or create the store with autoMigrate: true.'
          : `The ADK job schema version "${options.found}" is newer than the supported version "${options.supported}". Upgrade @adk/jobs.`,
    });
    this.found = options.found;
    this.supported = options.supported;
  }

  static override isInstance(error: unknown): error is JobSchemaVersionError {
    return AdkError.hasMarker(error, MARKER);
  }
}
