import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.SqlDriverMissingError');

/** A database URL needs a driver package that is not installed (`better-sqlite3` or `pg`). */
export class SqlDriverMissingError extends AdkError {
  private readonly [MARKER] = true;
  /** The npm package to install. */
  readonly packageName: string;

  constructor(options: { packageName: string; cause?: unknown }) {
    super('SqlDriverMissingError', 'SQL_DRIVER_MISSING', {
      message: `This database URL needs the "${options.packageName}" package. Install it: pnpm add ${options.packageName}`,
      cause: options.cause,
    });
    this.packageName = options.packageName;
  }

  static override isInstance(error: unknown): error is SqlDriverMissingError {
    return AdkError.hasMarker(error, MARKER);
  }
}
