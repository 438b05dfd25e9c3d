import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.MigrationError');

/** Installing or upgrading the session tables failed; the failed step was rolled back. */
export class MigrationError extends AdkError {
  private readonly [MARKER] = true;
  /** The migration that failed, when known. */
  readonly migrationName: string | undefined;

  constructor(options: { migrationName?: string; cause?: unknown }) {
    super('MigrationError', 'MIGRATION_FAILED', {
      message: `Migrating the ADK session tables failed${options.migrationName ? ` at "${options.migrationName}"` : ''}: ${options.cause instanceof Error ? options.cause.message : String(options.cause)}`,
      cause: options.cause,
    });
    this.migrationName = options.migrationName;
  }

  static override isInstance(error: unknown): error is MigrationError {
    return AdkError.hasMarker(error, MARKER);
  }
}
