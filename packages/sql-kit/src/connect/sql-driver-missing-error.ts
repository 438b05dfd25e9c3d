import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.SqlDriverMissingError');

/**
 * A database URL needs a driver package that is not installed (`better-sqlite3` or `pg`), or that
 * is installed without its native addon (`better-sqlite3` whose build script was skipped: npm 11
 * and pnpm 10 skip dependency build scripts unless the project allows them). Thrown by
 * {@link openSqlDatabase}; `@adk/session-sql` re-exports it.
 */
export class SqlDriverMissingError extends AdkError {
  private readonly [MARKER] = true;
  /** The npm package to install. */
  readonly packageName: string;

  /** `missing`: not installed; `not-built`: installed, but its native addon cannot be loaded. */
  readonly reason: 'missing' | 'not-built';

  constructor(options: { packageName: string; reason?: 'missing' | 'not-built'; cause?: unknown }) {
    const reason = options.reason ?? 'missing';
    super('SqlDriverMissingError', 'SQL_DRIVER_MISSING', {
      message:
        reason === 'missing'
          ? `This database URL needs the "${options.packageName}" package. Install it: npm install ${options.packageName}`
          : `"${options.packageName}" is installed but its native addon was not built for this Node.js (${process.version}). Allow its install script, then build it: npm install-scripts approve ${options.packageName} && npm rebuild ${options.packageName} (npm 11), or pnpm approve-builds (pnpm 10: add it to onlyBuiltDependencies) and pnpm rebuild ${options.packageName}.`,
      cause: options.cause,
    });
    this.reason = reason;
    this.packageName = options.packageName;
  }

  static override isInstance(error: unknown): error is SqlDriverMissingError {
    return AdkError.hasMarker(error, MARKER);
  }
}
