import type { SqlSessionServiceUrlOptions } from './options';
import { SqlSessionService } from './sql-session-service';

/**
 * Open a SQL session store from a URL; the same as {@link SqlSessionService.fromUrl}.
 *
 * @example
 * ```ts
 * const sessions = await createSessionService(process.env.DATABASE_URL ?? 'sqlite:./sessions.db', {
 *   autoMigrate: true,
 * });
 * ```
 */
export function createSessionService(
  url: string,
  options: SqlSessionServiceUrlOptions = {},
): Promise<SqlSessionService> {
  return SqlSessionService.fromUrl(url, options);
}
