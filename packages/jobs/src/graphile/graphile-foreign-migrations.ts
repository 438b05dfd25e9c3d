import type { WorkerEvents } from 'graphile-worker';
import type pg from 'pg';

/** The newest graphile-worker migration applied in `schema`. */
export async function appliedGraphileMigration(pool: pg.Pool, schema: string): Promise<number> {
  const result = await pool.query<{ id: number | null }>(
    `select max(id) as id from "${schema}".migrations`,
  );
  return Number(result.rows[0]?.id ?? 0);
}

/**
 * Keep a graphile-worker pool running when another graphile-worker schema of the same database is
 * migrated.
 *
 * graphile-worker announces every migration on the database-wide `worker:migrate` channel, without
 * naming the schema, and a pool that hears a breaking one shuts down (and sets `process.exitCode`
 * to 57): installing graphile-worker in a second schema (another application, another ADK store)
 * stopped every worker of the database. A breaking migration whose number is at most the newest
 * one already applied in this pool's schema cannot be this schema's: the announcement is marked
 * non-breaking before graphile reads it (`pool:listen:notification` is emitted, synchronously,
 * before graphile handles the message). A newer number may be this schema's (a newer
 * graphile-worker upgrading it) and is left to graphile, which stops; the consumer reports that
 * through `onError`.
 */
export function ignoreForeignBreakingMigrations(events: WorkerEvents, applied: number): void {
  events.on('pool:listen:notification', ({ message }) => {
    if (message.channel !== 'worker:migrate' || message.payload === undefined) return;
    let payload: { migrationNumber?: unknown; breaking?: unknown };
    try {
      payload = JSON.parse(message.payload) as typeof payload;
    } catch {
      return;
    }
    if (payload.breaking !== true || typeof payload.migrationNumber !== 'number') return;
    if (payload.migrationNumber > applied) return;
    (message as { payload?: string }).payload = JSON.stringify({ ...payload, breaking: false });
  });
}
