import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.UnsupportedJobDialectError');

/** The Kysely instance talks to a database the SQL job store does not drive (SQLite, PostgreSQL). */
export class UnsupportedJobDialectError extends AdkError {
  private readonly [MARKER] = true;
  /** Class name of the Kysely adapter found. */
  readonly adapter: string;

  constructor(options: { adapter: string }) {
    super('UnsupportedJobDialectError', 'UNSUPPORTED_JOB_DIALECT', {
      message: `SqlJobStore supports SQLite and PostgreSQL; this Kysely uses "${options.adapter}". Pass dialect: 'sqlite' or 'postgres' if a wrapper hides the adapter.`,
    });
    this.adapter = options.adapter;
  }

  static override isInstance(error: unknown): error is UnsupportedJobDialectError {
    return AdkError.hasMarker(error, MARKER);
  }
}
