/**
 * Table layout, shared with the Python ADK's v1 `DatabaseSessionService` and with `@google/adk`'s.
 * Column values are dialect-encoded (see `../dialect`): JSON is text on SQLite and `jsonb` on
 * PostgreSQL; times are INTEGER epoch milliseconds on SQLite and `timestamptz` on PostgreSQL.
 */

/** `sessions`: one row per session; primary key (id, app_name, user_id). */
export interface SessionsTable {
  id: string;
  app_name: string;
  user_id: string;
  /** Session-scoped state (keys without prefix). */
  state: unknown;
  create_time: unknown;
  /** The session's revision marker (`Session.lastUpdateTime`). */
  update_time: unknown;
}

/** `events`: one row per event; primary key (id, app_name, user_id, session_id). */
export interface EventsTable {
  id: string;
  app_name: string;
  user_id: string;
  session_id: string;
  invocation_id: string;
  timestamp: unknown;
  /** The whole event, snake_case keys (see `../codec/event-codec.ts`). */
  event_data: unknown;
}

/** `app_states`: state shared by every user of an app (keys stored without `app:`). */
export interface AppStatesTable {
  app_name: string;
  state: unknown;
  update_time: unknown;
}

/** `user_states`: state shared by one user's sessions (keys stored without `user:`). */
export interface UserStatesTable {
  app_name: string;
  user_id: string;
  state: unknown;
  update_time: unknown;
}

/** `adk_internal_metadata`: holds `schema_version`. */
export interface MetadataTable {
  key: string;
  value: string;
}

/** The Kysely database type of the session tables. */
export interface SessionDatabase {
  sessions: SessionsTable;
  events: EventsTable;
  app_states: AppStatesTable;
  user_states: UserStatesTable;
  adk_internal_metadata: MetadataTable;
}

/** The `schema_version` value this package reads and writes. */
export const SCHEMA_VERSION = '1';
