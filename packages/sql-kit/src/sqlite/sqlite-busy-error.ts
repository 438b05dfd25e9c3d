import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.SqliteBusyError');

/**
 * A SQLite operation kept finding the database locked by other connections or processes, through
 * every attempt {@link retryWhileSqliteBusy} allowed. Nothing of the operation was written (SQLite
 * rolled it back). **Retryable**: the same call can succeed once the other writers let go; `cause`
 * holds the driver's last `SQLITE_BUSY` error.
 */
export class SqliteBusyError extends AdkError {
  private readonly [MARKER] = true;
  /** Always true: the operation wrote nothing and may be tried again. */
  readonly retryable = true;
  /** How many times the operation was tried. */
  readonly attempts: number;
  /** Milliseconds from the first attempt to the last failure. */
  readonly waitedMs: number;

  constructor(options: { attempts: number; waitedMs: number; cause?: unknown }) {
    super('SqliteBusyError', 'SQLITE_BUSY', {
      message: `The SQLite database stayed locked by other writers through ${options.attempts} attempts over ${options.waitedMs} ms; nothing was written. Try again, or raise the busy timeout.`,
      cause: options.cause,
    });
    this.attempts = options.attempts;
    this.waitedMs = options.waitedMs;
  }

  static override isInstance(error: unknown): error is SqliteBusyError {
    return AdkError.hasMarker(error, MARKER);
  }
}
