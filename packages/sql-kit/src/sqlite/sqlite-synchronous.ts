import { InvalidArgumentError } from '@adk/core';

import type { SqlitePragmaRunner } from './pragma-runner';

/**
 * SQLite's `synchronous` setting: when a commit waits for the disk.
 *
 * - `full` (the default of every ADK store): each commit is flushed (`fsync`) before it returns.
 *   In WAL mode a committed write survives a power failure or an OS crash.
 * - `normal`: in WAL mode commits are flushed at checkpoints only, so the last commits before a
 *   power failure or OS crash can be lost (never corrupted; a crash of the process alone loses
 *   nothing). Faster on disks with slow flushes.
 * - `off`: no flush at all; an OS crash can corrupt the file.
 * - `extra`: as `full`, and the directory is flushed too (rollback-journal mode only gains).
 */
export type SqliteSynchronous = 'off' | 'normal' | 'full' | 'extra';

/** The durability every ADK SQLite store opens a file with: a commit that returned is on disk. */
export const DEFAULT_SQLITE_SYNCHRONOUS: SqliteSynchronous = 'full';

const MODES: readonly SqliteSynchronous[] = ['off', 'normal', 'full', 'extra'];

/** SQLite's answer to `PRAGMA synchronous` (0 to 3) as a {@link SqliteSynchronous}. */
export function sqliteSynchronousName(level: unknown): SqliteSynchronous | undefined {
  return typeof level === 'number' || typeof level === 'bigint' ? MODES[Number(level)] : undefined;
}

/**
 * Check a `synchronous` value given by a user (an option or a URL parameter, any case).
 * Throws `InvalidArgumentError` for anything but `off`, `normal`, `full` or `extra`.
 */
export function parseSqliteSynchronous(value: string, argument = 'synchronous'): SqliteSynchronous {
  const mode = value.toLowerCase() as SqliteSynchronous;
  if (MODES.includes(mode)) return mode;
  throw new InvalidArgumentError({
    message: `Unknown SQLite synchronous mode "${value}": use off, normal, full or extra.`,
    argument,
  });
}

/**
 * Set a connection's `synchronous` mode (it applies to that connection only and is not stored
 * in the file) and return the mode SQLite reports afterwards.
 *
 * @example
 * ```ts
 * setSqliteSynchronous(database, 'full'); // 'full'
 * ```
 */
export function setSqliteSynchronous(
  database: SqlitePragmaRunner,
  mode: SqliteSynchronous = DEFAULT_SQLITE_SYNCHRONOUS,
): SqliteSynchronous | undefined {
  const checked = parseSqliteSynchronous(mode);
  database.pragma(`synchronous = ${checked.toUpperCase()}`);
  const level = database.pragma('synchronous', { simple: true });
  return sqliteSynchronousName(level);
}
