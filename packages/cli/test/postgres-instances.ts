import {
  POSTGRES_URL,
  createPostgresSchema,
  dropPostgresSchema,
  postgresSchemaName,
} from '@adk/test-databases';

import { serve, type ServeHandle, type ServeOptions } from '../src';

/** Where instances sharing one PostgreSQL database keep their sessions and their job queue. */
export interface SharedPostgres {
  /** The sessions' schema (created). */
  schema: string;
  /** `sessionServiceUri`: the test database with `search_path` set to {@link schema}. */
  sessionServiceUri: string;
  /** `queueNamespace`: the job queue's schema (graphile-worker creates it). */
  queueNamespace: string;
}

/**
 * Run `use` with a new sessions schema (`<label>`) and job queue schema (`<label>_queue`) on the
 * test PostgreSQL; both are dropped afterwards, passed or failed.
 */
export async function onSharedPostgres<T>(
  label: string,
  use: (shared: SharedPostgres) => Promise<T>,
): Promise<T> {
  const schema = postgresSchemaName(label);
  const queueNamespace = postgresSchemaName(`${label}_queue`);
  await createPostgresSchema(schema);
  try {
    const separator = POSTGRES_URL.includes('?') ? '&' : '?';
    const sessionServiceUri = `${POSTGRES_URL}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    return await use({ schema, sessionServiceUri, queueNamespace });
  } finally {
    await dropPostgresSchema(schema);
    await dropPostgresSchema(queueNamespace);
  }
}

/** A running instance: its URL, and how to close it. */
export interface Instance {
  url: string;
  close(): Promise<void>;
}

/**
 * Run `use` with two instances started with the same `options`: the first by `serve` in this
 * process, the second by `startSecond` (`serve` too, or one in a child process). Both are closed
 * afterwards; the first also when the second fails to start.
 */
export async function twoInstances<T, Second extends Instance>(
  options: ServeOptions,
  startSecond: (options: ServeOptions) => Promise<Second>,
  use: (first: ServeHandle, second: Second) => Promise<T>,
): Promise<T> {
  const first = await serve(options);
  const second = await startSecond(options).catch(async (error: unknown) => {
    await first.close();
    throw error;
  });
  try {
    return await use(first, second);
  } finally {
    await first.close();
    await second.close();
  }
}
