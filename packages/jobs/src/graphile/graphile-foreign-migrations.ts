import type { WorkerEvents } from 'graphile-worker';
import type pg from 'pg';

/** The newest graphile-worker migration applied in `schema`. */
async function appliedGraphileMigration(pool: pg.Pool, schema: string): Promise<number> {
  const result = await pool.query<{ id: number | null }>(
    `select max(id) as id from "${schema}".migrations`,
  );
  return Number(result.rows[0]?.id ?? 0);
}

/**
 * The newest breaking migration applied in `schema` after migration `since`, or `undefined` when
 * there is none: a newer graphile-worker upgraded the schema in a way this one cannot run on.
 */
async function breakingGraphileMigrationSince(
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

/** What {@link stopOnlyForOwnBreakingMigrations} tells its caller. */
export interface OwnMigrationHandlers {
  /** A newer graphile-worker applied breaking migration `migration` to this very schema. */
  onOwnBreaking(migration: number): void;
  /** Reading the schema's migrations after an announcement failed. */
  onError(error: unknown): void;
}

/**
 * Keep a graphile-worker runner (a job pool or a crontab) from stopping on another schema's
 * migration; tell the caller when its own schema was upgraded incompatibly, so it stops then.
 *
 * graphile-worker announces every migration on the database-wide `worker:migrate` channel, without
 * naming the schema, and a runner that hears a breaking one shuts down (and sets
 * `process.exitCode` to 57): installing or upgrading graphile-worker in a second schema of the
 * same database (another application, another ADK store, any graphile-worker version) stopped
 * every worker of the database. Every breaking announcement is marked non-breaking before graphile
 * reads it (`pool:listen:notification` is emitted, synchronously, before graphile handles the
 * message); then `schema`'s own `migrations` table is read (the announcement is sent when the
 * migration commits, so an own migration is visible by then), and `onOwnBreaking` is called only
 * when a breaking migration was applied there since this call read the schema's latest one.
 * Resolves once that reading is taken: call it before starting the runner with `events`.
 */
export async function stopOnlyForOwnBreakingMigrations(
  events: WorkerEvents,
  pool: pg.Pool,
  schema: string,
  handlers: OwnMigrationHandlers,
): Promise<void> {
  const applied = await appliedGraphileMigration(pool, schema);
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
    breakingGraphileMigrationSince(pool, schema, applied).then((breaking) => {
      if (breaking !== undefined) handlers.onOwnBreaking(breaking);
    }, handlers.onError);
  });
}
