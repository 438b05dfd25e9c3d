import type { Generated, Selectable } from 'kysely';

/** The jobs table. */
export const JOBS_TABLE = 'adk_jobs';
/** Key/value metadata, holding `schema_version`. */
export const METADATA_TABLE = 'adk_jobs_metadata';
/** The schema version this package reads and writes. */
export const JOB_SCHEMA_VERSION = '1';

/** The columns of {@link JOBS_TABLE}. Times are ms since the epoch (PostgreSQL `bigint` reads as a string). */
export interface JobTable {
  id: string;
  /** PostgreSQL only: enqueue order (SQLite orders by `rowid`). */
  seq: Generated<number | string>;
  queue: string;
  priority: number;
  app_name: string;
  user_id: string;
  session_id: string | null;
  message: string;
  state_delta: string | null;
  state: string;
  run_at: number | string;
  attempt: number;
  max_attempts: number;
  last_error: string | null;
  result: string | null;
  unique_key: string | null;
  lease_owner: string | null;
  lease_expires_at: number | string | null;
  created_at: number | string;
  updated_at: number | string;
  started_at: number | string | null;
  finished_at: number | string | null;
}

/** The tables of the job store. */
export interface JobDatabase {
  [JOBS_TABLE]: JobTable;
  [METADATA_TABLE]: { key: string; value: string };
}

/** A row of {@link JOBS_TABLE} as read. */
export type JobRow = Selectable<JobTable>;
