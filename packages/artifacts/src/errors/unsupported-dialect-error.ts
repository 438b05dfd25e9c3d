import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.UnsupportedDialectError');

/** The Kysely instance talks to a database this store does not support (only SQLite and PostgreSQL). */
export class UnsupportedDialectError extends AdkError {
  private readonly [MARKER] = true;

  constructor(options: { adapter: string; cause?: unknown }) {
    super('UnsupportedDialectError', 'UNSUPPORTED_DIALECT', {
      message: `Unsupported Kysely adapter "${options.adapter}": use SQLite or PostgreSQL, or pass \`dialect: 'sqlite' | 'postgres'\` for a compatible custom dialect.`,
      cause: options.cause,
    });
  }

  static override isInstance(error: unknown): error is UnsupportedDialectError {
    return AdkError.hasMarker(error, MARKER);
  }
}
