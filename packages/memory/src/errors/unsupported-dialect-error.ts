import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.UnsupportedMemoryDialectError');

/**
 * The Kysely instance talks to a database whose full-text search this store does not drive
 * (only SQLite FTS5 and PostgreSQL `tsvector` are supported).
 */
export class UnsupportedMemoryDialectError extends AdkError {
  private readonly [MARKER] = true;

  constructor(options: { adapter: string; cause?: unknown }) {
    super('UnsupportedMemoryDialectError', 'UNSUPPORTED_MEMORY_DIALECT', {
      message: `Unsupported Kysely adapter "${options.adapter}" for SQL memory: use SQLite (with FTS5) or PostgreSQL, or pass \`dialect: 'sqlite' | 'postgres'\` for a compatible custom dialect.`,
      cause: options.cause,
    });
  }

  static override isInstance(error: unknown): error is UnsupportedMemoryDialectError {
    return AdkError.hasMarker(error, MARKER);
  }
}
