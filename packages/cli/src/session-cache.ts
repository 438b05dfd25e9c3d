import { UsageError } from './errors';
import type { CommandOption } from './commands/command';

/**
 * The budget of the session caches in the long-running commands (`adk api_server`, `adk web`,
 * `adk worker`), in MiB: each of the two caches that keep recent sessions' events between turns
 * (`SqlSessionService`'s loaded sessions, core's contents cache) may hold about this much heap.
 * The libraries' own default, 4 MiB each, fits a handful of long sessions; past it, each turn of
 * a session that no longer fits reads and renders the whole session again (docs/PERFORMANCE.md,
 * "Caches bounded by bytes": 10 users of 150 turns cost a third more CPU per turn at 4 MiB).
 */
export const SERVER_SESSION_CACHE_MIB = 32;

/** {@link SERVER_SESSION_CACHE_MIB} in bytes: what `serve` and `runWorker` use when not told. */
export const SERVER_SESSION_CACHE_BYTES = SERVER_SESSION_CACHE_MIB * 2 ** 20;

/** `--session_cache_mib`, as the long-running commands take it. */
export const SESSION_CACHE_OPTION: CommandOption = {
  type: 'string',
  value: 'MiB',
  description: `Heap each session cache may hold: the recent sessions' events and model contents, so a turn reads and renders only what is new (default ${SERVER_SESSION_CACHE_MIB}; 0 keeps none)`,
};

/** The bytes of `--session_cache_mib` (the server default when absent). */
export function sessionCacheBytes(raw: string | undefined): number {
  if (raw === undefined) return SERVER_SESSION_CACHE_BYTES;
  const mib = Number(raw);
  if (raw === '' || !Number.isFinite(mib) || mib < 0)
    throw new UsageError(`Invalid --session_cache_mib: ${String(raw)} (MiB, >= 0)`);
  return Math.round(mib * 2 ** 20);
}
