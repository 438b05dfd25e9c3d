import { createRequire } from 'node:module';

/** The part of `pg` the bench uses to create and drop databases (it does not depend on `@types/pg`). */
export interface PgClient {
  connect(): Promise<void>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
}

/** A `pg` client on `connectionString` (not yet connected). */
export function pgClient(connectionString: string): PgClient {
  const pg = createRequire(import.meta.url)('pg') as {
    Client: new (config: { connectionString: string }) => PgClient;
  };
  return new pg.Client({ connectionString });
}
