import {
  checkSchemaOption,
  inSchema,
  requireSqlDialect,
  runMigrations,
  type AnyKysely,
  type SqlDialect,
} from '@adk/sql-kit';
import { DatabasePushNotificationStore, DatabaseTaskStore } from '@a2a-js/sdk/server/database';

import { UnsupportedA2aDialectError } from '../errors/unsupported-a2a-dialect-error';
import { A2A_PUSH_CONFIGS_TABLE, A2A_TASKS_TABLE, a2aTableMigrations } from './a2a-sql-migrations';

/** Options of {@link createA2aSqlStores}. */
export interface A2aSqlStoresOptions {
  /** Your Kysely instance, on SQLite (better-sqlite3) or PostgreSQL (pg): the sessions' one is fine. */
  db: AnyKysely;
  /**
   * The database kind. Detected from the Kysely adapter when omitted, including an adapter from
   * another copy of kysely (`require('kysely')` beside `import`) or a wrapper, by its class name.
   */
  dialect?: SqlDialect;
  /** PostgreSQL schema of the tables (created when missing); default the connection's current. */
  schema?: string;
  /** Create or upgrade the tables now (default true; safe from several processes at once). */
  autoMigrate?: boolean;
}

/** The task and push-notification stores of an A2A server, in SQL. */
export interface A2aSqlStores {
  taskStore: DatabaseTaskStore;
  pushNotificationStore: DatabasePushNotificationStore;
}

/**
 * A2A tasks and push-notification configs in SQLite or PostgreSQL, through the A2A SDK's own
 * Kysely stores (`DatabaseTaskStore`, `DatabasePushNotificationStore`), in tables `a2a_tasks` and
 * `a2a_push_notification_configs` that this function creates (the SDK leaves migrating to its
 * `a2a-db` command). Tasks, their history and their link to ADK sessions (`contextId` is the
 * session id) survive a restart, and `tasks/list` pages through them.
 *
 * @example
 * ```ts
 * const { taskStore, pushNotificationStore } = await createA2aSqlStores({ db });
 * createA2aServer({ agent, sessionService, taskStore, pushNotifications: { store: pushNotificationStore } });
 * ```
 * @throws UnsupportedA2aDialectError when `db` is neither SQLite nor PostgreSQL (or cannot be
 *   recognised as either: then pass `dialect`).
 */
export async function createA2aSqlStores(options: A2aSqlStoresOptions): Promise<A2aSqlStores> {
  const dialect = requireSqlDialect(options.db, {
    override: options.dialect,
    matchAdapterName: true,
    unsupported: (adapter) => new UnsupportedA2aDialectError({ adapter }),
  });
  checkSchemaOption(dialect, options.schema);
  if (options.autoMigrate ?? true) {
    await runMigrations(options.db, a2aTableMigrations({ dialect, schema: options.schema }));
  }
  const db = inSchema(options.db, options.schema);
  return {
    taskStore: new DatabaseTaskStore(db, { tableName: A2A_TASKS_TABLE }),
    pushNotificationStore: new DatabasePushNotificationStore(db, {
      tableName: A2A_PUSH_CONFIGS_TABLE,
    }),
  };
}
