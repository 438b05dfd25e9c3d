/**
 * Background agent runs for ADK for TypeScript: enqueue a run for later, run it in a worker with
 * leases, retries with backoff, priorities and per-queue concurrency, and schedule recurring runs
 * with cron. Stores: in memory, and SQL over Kysely (SQLite, PostgreSQL).
 */
export * from './clock';
export * from './cron';
export * from './diagnostics';
export * from './errors';
export * from './notify';
export * from './sql';
export * from './store';
export * from './worker';
