import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.UnsupportedJobDialectError');

/**
 * The Kysely instance talks to a database `SqlJobStore` does not drive: it drives SQLite only. On
 * PostgreSQL use `GraphileJobStore` (graphile-worker), on Redis `BullMqJobStore`.
 */
export class UnsupportedJobDialectError extends AdkError {
  private readonly [MARKER] = true;
  /** Class name of the Kysely adapter found. */
  readonly adapter: string;

  constructor(options: { adapter: string }) {
    super('UnsupportedJobDialectError', 'UNSUPPORTED_JOB_DIALECT', {
      message: `SqlJobStore drives SQLite only; this Kysely uses "${options.adapter}". On PostgreSQL use GraphileJobStore from '@adk/jobs/graphile' (graphile-worker); pass dialect: 'sqlite' if a wrapper hides a SQLite adapter.`,
    });
    this.adapter = options.adapter;
  }

  static override isInstance(error: unknown): error is UnsupportedJobDialectError {
    return AdkError.hasMarker(error, MARKER);
  }
}
