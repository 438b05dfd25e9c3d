import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.UnsupportedA2aDialectError');

/**
 * The Kysely instance given for the A2A task tables was not recognised as SQLite or PostgreSQL
 * (another database, or an adapter whose class tells neither: pass `dialect`).
 */
export class UnsupportedA2aDialectError extends AdkError {
  private readonly [MARKER] = true;
  /** The Kysely adapter's class name. */
  readonly adapter: string;

  constructor(options: { adapter: string }) {
    super('UnsupportedA2aDialectError', 'A2A_UNSUPPORTED_DIALECT', {
      message: `The A2A SQL stores run on SQLite or PostgreSQL, and this Kysely's adapter (${options.adapter}) was not recognised as either: pass dialect: 'sqlite' or dialect: 'postgres' if it is one of them.`,
    });
    this.adapter = options.adapter;
  }

  static override isInstance(error: unknown): error is UnsupportedA2aDialectError {
    return AdkError.hasMarker(error, MARKER);
  }
}
