import type {
  ArtifactFileRequest,
  ArtifactScope,
  ArtifactService,
  ArtifactVersion,
  LoadArtifactRequest,
  Part,
  SaveArtifactRequest,
} from '@adk/core';
import {
  checkSchemaOption,
  inSchema,
  onceUntilFailure,
  requireSqlDialect,
  retryOnUniqueViolation,
  runMigrations,
  type AnyKysely,
  type SqlDialect,
  type SqlTablesLocation,
} from '@adk/sql-kit';
import { sql, type Kysely } from 'kysely';

import { CorruptArtifactError } from '../errors/corrupt-artifact-error';
import { UnsupportedDialectError } from '../errors/unsupported-dialect-error';
import { decodePart, encodePart, type StoredPartKind } from '../internal/part-codec';
import {
  checkLoad,
  checkSave,
  checkScope,
  locate,
  type ResolvedLocation,
} from '../internal/request-checks';
import { ARTIFACTS_TABLE, artifactTableMigrations } from './migrations';

interface ArtifactRow {
  app_name: string;
  user_id: string;
  session_id: string;
  filename: string;
  version: number;
  kind: StoredPartKind;
  mime_type: string | null;
  display_name: string | null;
  file_uri: string | null;
  data: Uint8Array;
  custom_metadata: string | null;
  create_time: number | string | bigint;
}

interface ArtifactDatabase {
  [ARTIFACTS_TABLE]: ArtifactRow;
}

/** Options of {@link SqlArtifactService}. */
export interface SqlArtifactServiceOptions {
  /** Your Kysely instance (SQLite through better-sqlite3 or another SQLite dialect, or PostgreSQL). */
  db: AnyKysely;
  /** Force the SQL flavour when a custom dialect's adapter is not recognised. */
  dialect?: SqlDialect;
  /**
   * PostgreSQL schema holding the artifact table (created by `migrate()` when missing), as the
   * `schema` option of `@adk/session-sql` and `SqlMemoryService`; the connection's `search_path`
   * decides when omitted. Not supported on SQLite (`InvalidArgumentError`).
   */
  schema?: string;
  /**
   * Run the in-code migrations on first use (default `true`). With `false`, call
   * {@link SqlArtifactService.migrate} yourself (for example in a deploy step).
   */
  autoMigrate?: boolean;
}

const USER_SCOPE = '';
const MAX_SAVE_ATTEMPTS = 20;

/**
 * Artifacts stored in SQL through Kysely: one row per version in the `adk_artifacts` table
 * (created by in-code migrations, tracked in `adk_artifacts_migrations`). Works on SQLite and
 * PostgreSQL; tables go to the connection's default schema, or to `schema` on PostgreSQL.
 *
 * A new version is inserted with one `INSERT … SELECT max(version) + 1` statement; two writers
 * racing for the same number are settled by the primary key and the loser retries.
 *
 * @example
 * ```ts
 * import SQLite from 'better-sqlite3';
 * import { Kysely, SqliteDialect } from 'kysely';
 * const db = new Kysely({ dialect: new SqliteDialect({ database: new SQLite('adk.db') }) });
 * const artifacts = new SqlArtifactService({ db });
 * ```
 */
export class SqlArtifactService implements ArtifactService {
  /** The caller's instance, for migrations. */
  readonly #root: Kysely<ArtifactDatabase>;
  /** The same, with the schema applied. */
  readonly #db: Kysely<ArtifactDatabase>;
  readonly #location: SqlTablesLocation;
  readonly #autoMigrate: boolean;
  readonly #migrate = onceUntilFailure(() =>
    runMigrations(this.#root, artifactTableMigrations(this.#location)),
  );

  constructor(options: SqlArtifactServiceOptions) {
    const dialect = requireSqlDialect(options.db, {
      override: options.dialect,
      unsupported: (adapter) => new UnsupportedDialectError({ adapter }),
    });
    checkSchemaOption(dialect, options.schema);
    this.#root = options.db as Kysely<ArtifactDatabase>;
    this.#db = inSchema(this.#root, options.schema);
    this.#location = { dialect, schema: options.schema };
    this.#autoMigrate = options.autoMigrate ?? true;
  }

  /** Create or upgrade the tables now. Idempotent; concurrent callers share one run. */
  migrate(): Promise<void> {
    return this.#migrate();
  }

  async saveArtifact(request: SaveArtifactRequest): Promise<number> {
    const location = checkSave(request);
    const encoded = encodePart(request.artifact);
    const metadata =
      request.customMetadata === undefined ? null : JSON.stringify(request.customMetadata);
    await this.#prepare();
    const key = keyOf(location);
    return retryOnUniqueViolation(MAX_SAVE_ATTEMPTS, async () => {
      const nextVersion = this.#db
        .selectFrom(ARTIFACTS_TABLE)
        .select(sql<number>`coalesce(max(version), -1) + 1`.as('version'))
        .where('app_name', '=', key.app_name)
        .where('user_id', '=', key.user_id)
        .where('session_id', '=', key.session_id)
        .where('filename', '=', key.filename);
      const row = await this.#db
        .insertInto(ARTIFACTS_TABLE)
        .columns([
          'app_name',
          'user_id',
          'session_id',
          'filename',
          'version',
          'kind',
          'mime_type',
          'display_name',
          'file_uri',
          'data',
          'custom_metadata',
          'create_time',
        ])
        .expression(
          this.#db.selectNoFrom([
            sql.val(key.app_name).as('app_name'),
            sql.val(key.user_id).as('user_id'),
            sql.val(key.session_id).as('session_id'),
            sql.val(key.filename).as('filename'),
            nextVersion.as('version'),
            sql.val(encoded.kind).as('kind'),
            sql.val(encoded.mimeType ?? null).as('mime_type'),
            sql.val(encoded.displayName ?? null).as('display_name'),
            sql.val(encoded.fileUri ?? null).as('file_uri'),
            sql.val(encoded.data).as('data'),
            sql.val(metadata).as('custom_metadata'),
            sql.val(Date.now()).as('create_time'),
          ]),
        )
        .returning('version')
        .executeTakeFirstOrThrow();
      return Number(row.version);
    });
  }

  async loadArtifact(request: LoadArtifactRequest): Promise<Part | undefined> {
    const location = checkLoad(request);
    await this.#prepare();
    const row = await this.#selectVersion(location, request.version).selectAll().executeTakeFirst();
    if (!row) return undefined;
    return decodePart({
      kind: row.kind,
      mimeType: row.mime_type ?? undefined,
      displayName: row.display_name ?? undefined,
      fileUri: row.file_uri ?? undefined,
      data: Buffer.from(row.data),
    });
  }

  async getArtifactVersion(request: LoadArtifactRequest): Promise<ArtifactVersion | undefined> {
    const location = checkLoad(request);
    await this.#prepare();
    const row = await this.#selectVersion(location, request.version)
      .select(['version', 'mime_type', 'custom_metadata', 'create_time'])
      .executeTakeFirst();
    return row ? toVersion(row, location.filename) : undefined;
  }

  async listArtifactKeys(request: ArtifactScope): Promise<string[]> {
    checkScope(request);
    await this.#prepare();
    const rows = await this.#db
      .selectFrom(ARTIFACTS_TABLE)
      .select('filename')
      .distinct()
      .where('app_name', '=', request.appName)
      .where('user_id', '=', request.userId)
      .where((eb) =>
        eb.or([
          eb('session_id', '=', request.sessionId),
          eb.and([eb('session_id', '=', USER_SCOPE), eb('filename', 'like', 'user:%')]),
        ]),
      )
      .execute();
    // Sorted here, by code unit, so the order never depends on the database's collation.
    return rows.map((r) => r.filename).sort();
  }

  async deleteArtifact(request: ArtifactFileRequest): Promise<void> {
    const key = keyOf(locate(request));
    await this.#prepare();
    await this.#db
      .deleteFrom(ARTIFACTS_TABLE)
      .where('app_name', '=', key.app_name)
      .where('user_id', '=', key.user_id)
      .where('session_id', '=', key.session_id)
      .where('filename', '=', key.filename)
      .execute();
  }

  async listVersions(request: ArtifactFileRequest): Promise<number[]> {
    return (await this.listArtifactVersions(request)).map((v) => v.version);
  }

  async listArtifactVersions(request: ArtifactFileRequest): Promise<ArtifactVersion[]> {
    const key = keyOf(locate(request));
    await this.#prepare();
    const rows = await this.#db
      .selectFrom(ARTIFACTS_TABLE)
      .select(['version', 'mime_type', 'custom_metadata', 'create_time'])
      .where('app_name', '=', key.app_name)
      .where('user_id', '=', key.user_id)
      .where('session_id', '=', key.session_id)
      .where('filename', '=', key.filename)
      .orderBy('version', 'asc')
      .execute();
    return rows.map((row) => toVersion(row, key.filename));
  }

  #selectVersion(location: ResolvedLocation, version: number | undefined) {
    const key = keyOf(location);
    let query = this.#db
      .selectFrom(ARTIFACTS_TABLE)
      .where('app_name', '=', key.app_name)
      .where('user_id', '=', key.user_id)
      .where('session_id', '=', key.session_id)
      .where('filename', '=', key.filename);
    query =
      version === undefined
        ? query.orderBy('version', 'desc').limit(1)
        : query.where('version', '=', version);
    return query;
  }

  async #prepare(): Promise<void> {
    if (this.#autoMigrate) await this.migrate();
  }
}

function keyOf(location: ResolvedLocation) {
  return {
    app_name: location.appName,
    user_id: location.userId,
    session_id: location.sessionId ?? USER_SCOPE,
    filename: location.filename,
  };
}

function toVersion(
  row: Pick<ArtifactRow, 'version' | 'mime_type' | 'custom_metadata' | 'create_time'>,
  filename: string,
): ArtifactVersion {
  return {
    version: Number(row.version),
    mimeType: row.mime_type ?? undefined,
    customMetadata:
      row.custom_metadata === null
        ? undefined
        : parseMetadata(row.custom_metadata, `${ARTIFACTS_TABLE}: ${filename} v${row.version}`),
    createTime: Number(row.create_time),
  };
}

/** A stored `custom_metadata` column: a JSON object, else a {@link CorruptArtifactError}. */
function parseMetadata(text: string, location: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CorruptArtifactError({
      location,
      reason: 'custom_metadata is not valid JSON',
      cause: error,
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CorruptArtifactError({ location, reason: 'custom_metadata is not a JSON object' });
  }
  return value as Record<string, unknown>;
}
