import {
  POSTGRES_URL,
  createPostgresSchema,
  dropPostgresSchema,
  postgresKysely,
  postgresSchemaName,
  postgresUnavailable,
  sqliteKysely,
  temporaryDirectory,
} from '@adk/test-databases';
import type { Kysely, KyselyPlugin } from 'kysely';

import { SqlSessionService, type SessionDatabase } from '../src';

/** One real database a test file runs against, isolated from every other test file. */
export interface Backend {
  readonly label: 'SQLite file' | 'PostgreSQL';
  /** False when PostgreSQL is unreachable outside CI: the file's tests for it are skipped. */
  readonly available: boolean;
  /** URL and options that open the same database with `SqlSessionService.fromUrl`. */
  readonly url: string;
  readonly schema: string | undefined;
  setup(): Promise<void>;
  teardown(): Promise<void>;
  /** A new Kysely on this database (the caller destroys it). */
  kysely(plugins?: KyselyPlugin[]): Kysely<SessionDatabase>;
  /** A migrated service on a new Kysely (the service owns it). */
  service(plugins?: KyselyPlugin[]): Promise<SqlSessionService>;
}

function sqliteBackend(): Backend {
  const temp = temporaryDirectory('adk-session-sql-');
  const path = temp.file('sessions.db');
  const backend: Backend = {
    label: 'SQLite file',
    available: true,
    url: `sqlite:${path}`,
    schema: undefined,
    setup: async () => undefined,
    teardown: async () => temp.remove(),
    kysely: (plugins = []) => sqliteKysely(path, { wal: true, plugins }),
    service: async (plugins = []) => {
      const service = new SqlSessionService({ db: backend.kysely(plugins), ownsDatabase: true });
      await service.migrate();
      return service;
    },
  };
  return backend;
}

function postgresBackend(available: boolean): Backend {
  const schema = postgresSchemaName();
  const backend: Backend = {
    label: 'PostgreSQL',
    available,
    url: POSTGRES_URL,
    schema,
    setup: () => createPostgresSchema(schema),
    teardown: () => dropPostgresSchema(schema),
    kysely: (plugins = []) => postgresKysely(schema, { max: 4, plugins }),
    service: async (plugins = []) => {
      // As `fromUrl` opens it: the statements of every turn prepared.
      const service = new SqlSessionService({
        db: backend.kysely(plugins),
        ownsDatabase: true,
        preparedStatements: true,
      });
      await service.migrate();
      return service;
    },
  };
  return backend;
}

/** SQLite (always) and PostgreSQL (skipped with a notice when unreachable, except under CI). */
export async function testBackends(): Promise<Backend[]> {
  return [sqliteBackend(), postgresBackend((await postgresUnavailable()) === undefined)];
}
