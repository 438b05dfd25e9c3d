import {
  inSchema,
  type RunMigrationsOptions,
  type SqlMigration as Migration,
  type SqlTablesLocation,
} from '@adk/sql-kit';

/** Where the A2A task tables live: a PostgreSQL schema, or the connection's default. */
export type A2aTablesLocation = SqlTablesLocation;

/** Table of A2A tasks (the layout the A2A SDK's `DatabaseTaskStore` reads and writes). */
export const A2A_TASKS_TABLE = 'a2a_tasks';
/** Table of push notification configs (the SDK's `DatabasePushNotificationStore` layout). */
export const A2A_PUSH_CONFIGS_TABLE = 'a2a_push_notification_configs';

function migrations({ dialect, schema }: A2aTablesLocation): Record<string, Migration> {
  // PostgreSQL has `text`; SQLite stores JSON text in `text` too.
  const id = 'varchar(255)';
  return {
    '0001_create_a2a_tasks': {
      async up(root) {
        const db = inSchema(root, schema);
        await db.schema
          .createTable(A2A_TASKS_TABLE)
          .ifNotExists()
          .addColumn('tenant', id, (c) => c.notNull())
          .addColumn('owner', id, (c) => c.notNull())
          .addColumn('id', id, (c) => c.notNull())
          .addColumn('context_id', id, (c) => c.notNull())
          .addColumn('status_last_updated', 'bigint', (c) => c.notNull())
          .addColumn('status_state', id)
          .addColumn('status', 'text')
          .addColumn('artifacts', 'text')
          .addColumn('history', 'text')
          .addColumn('metadata', 'text')
          .addColumn('protocol_version', id)
          .addPrimaryKeyConstraint(`${A2A_TASKS_TABLE}_pkey`, ['tenant', 'owner', 'id'])
          .execute();
        await db.schema
          .createIndex(`${A2A_TASKS_TABLE}_scope_updated_idx`)
          .ifNotExists()
          .on(A2A_TASKS_TABLE)
          .columns(['tenant', 'owner', 'status_last_updated', 'id'])
          .execute();
        await db.schema
          .createIndex(`${A2A_TASKS_TABLE}_scope_context_idx`)
          .ifNotExists()
          .on(A2A_TASKS_TABLE)
          .columns(['tenant', 'owner', 'context_id', 'status_last_updated', 'id'])
          .execute();
        await db.schema
          .createTable(A2A_PUSH_CONFIGS_TABLE)
          .ifNotExists()
          .addColumn('tenant', id, (c) => c.notNull())
          .addColumn('owner', id, (c) => c.notNull())
          .addColumn('task_id', id, (c) => c.notNull())
          .addColumn('config_id', id, (c) => c.notNull())
          .addColumn('config_data', 'text')
          .addColumn('protocol_version', id)
          .addPrimaryKeyConstraint(`${A2A_PUSH_CONFIGS_TABLE}_pkey`, [
            'tenant',
            'owner',
            'task_id',
            'config_id',
          ])
          .execute();
      },
      async down(root) {
        const db = inSchema(root, schema);
        await db.schema.dropTable(A2A_PUSH_CONFIGS_TABLE).ifExists().execute();
        await db.schema.dropTable(A2A_TASKS_TABLE).ifExists().execute();
      },
    },
  };
  void dialect;
}

/** What `runMigrations` of `@adk/sql-kit` needs to create the A2A tables at `location`. */
export function a2aTableMigrations(location: A2aTablesLocation): RunMigrationsOptions {
  return {
    ...location,
    migrations: migrations(location),
    migrationTableName: 'adk_a2a_migrations',
    migrationLockTableName: 'adk_a2a_migrations_lock',
  };
}
