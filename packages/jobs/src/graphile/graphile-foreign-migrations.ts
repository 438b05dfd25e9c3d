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
 * The newest breaking migration applied in `schema` after migration `since`, or `undefined` when
 * there is none: a newer graphile-worker upgraded the schema in a way this one cannot run on.
 */
export async function breakingGraphileMigrationSince(
  pool: pg.Pool,
  schema: string,
  since: number,
): Promise<number | undefined> {
  const result = await pool.query<{ id: number | null }>(
    `select max(id) as id from "${schema}".migrations where breaking and id > $1`,
    [since],
  );
  const id = result.rows[0]?.id;
  return id === null || id === undefined ? undefined : Number(id);
}

/**
 * Keep a graphile-worker pool from stopping on another schema's migration, and leave the decision
 * to the caller.
 *
 * graphile-worker announces every migration on the database-wide `worker:migrate` channel, without
 * naming the schema, and a pool that hears a breaking one shuts down (and sets `process.exitCode`
 * to 57): installing or upgrading graphile-worker in a second schema of the same database (another
 * application, another ADK store, any graphile-worker version) stopped every worker of the
 * database. Every breaking announcement is marked non-breaking before graphile reads it
 * (`pool:listen:notification` is emitted, synchronously, before graphile handles the message), and
 * `onBreaking` is called with its number: the caller then reads its own schema's `migrations`
 * table (the announcement is sent when the migration commits, so an own migration is visible by
 * then) and stops only when its own schema was upgraded ({@link breakingGraphileMigrationSince}).
 */
export function holdBreakingMigrationAnnouncements(
  events: WorkerEvents,
  onBreaking: (migrationNumber: number) => void,
): void {
  events.on('pool:listen:notification', ({ message }) => {
    if (message.channel !== 'worker:migrate' || message.payload === undefined) return;
    let payload: { migrationNumber?: unknown; breaking?: unknown };
    try {
      payload = JSON.parse(message.payload) as typeof payload;
    } catch {
      return;
    }
    if (payload.breaking !== true) return;
    (message as { payload?: string }).payload = JSON.stringify({ ...payload, breaking: false });
    onBreaking(typeof payload.migrationNumber === 'number' ? payload.migrationNumber : NaN);
  });
}
