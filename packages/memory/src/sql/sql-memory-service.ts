import {
  validateDeleteMemoriesRequest,
  type Content,
  type DeleteMemoriesRequest,
  type DeleteMemoriesResponse,
  type MemoryEntry,
  type MemoryService,
  type SearchMemoryRequest,
  type SearchMemoryResponse,
  type Session,
} from '@adk/core';
import {
  checkSchemaOption,
  inSchema,
  lockKeyForTransaction,
  qualifiedTable,
  retryOnUniqueViolation,
  storeTables,
  type AnyKysely,
  type SqlDialect,
  type SqlTablesLocation,
} from '@adk/sql-kit';
import { sql, type Generated, type Kysely, type Transaction } from 'kysely';

import { UnsupportedMemoryDialectError } from '../errors/unsupported-dialect-error';
import {
  queryWords,
  searchLimit,
  sessionToRecords,
  type MemoryRecord,
} from '../internal/memory-text';
import { ENTRIES_TABLE, FTS_TABLE, memoryTableMigrations } from './migrations';

interface EntryRow {
  id: Generated<number>;
  app_name: string;
  user_id: string;
  session_id: string;
  event_id: string;
  author: string | null;
  timestamp: number | string;
  content: string;
  search_text: string;
  /** PostgreSQL only. */
  search_vector: Generated<string>;
}

interface MemoryDatabase {
  [ENTRIES_TABLE]: EntryRow;
}

/** Options of {@link SqlMemoryService}. */
export interface SqlMemoryServiceOptions {
  /** Your Kysely instance: SQLite (FTS5 must be compiled in, as in better-sqlite3) or PostgreSQL. */
  db: AnyKysely;
  /** Force the SQL flavour when a custom dialect's adapter is not recognised. */
  dialect?: SqlDialect;
  /**
   * PostgreSQL schema holding the memory tables (created by `migrate()` when missing), as the
   * `schema` option of `@adk/session-sql`; the connection's `search_path` decides when omitted.
   * Not supported on SQLite (`InvalidArgumentError`).
   */
  schema?: string;
  /**
   * PostgreSQL text-search configuration used to index and to query (default `english`: stemming
   * and stop words). Use `simple` for language-neutral matching. Changing it later affects only
   * sessions added afterwards.
   */
  textSearchConfig?: string;
  /** Run the in-code migrations on first use (default `true`); otherwise call `migrate()`. */
  autoMigrate?: boolean;
}

const INSERT_BATCH = 200;
const MAX_ATTEMPTS = 5;

/**
 * Memory stored in SQL through Kysely and searched with the database's own full-text engine,
 * best matches first:
 * - SQLite: an FTS5 index (porter stemming, Unicode-aware, diacritics folded) ranked by `bm25`;
 * - PostgreSQL: a `tsvector` column with a GIN index, matched with `to_tsquery` and ranked by
 *   `ts_rank`.
 *
 * Any query word may match (the words are OR-ed, so entries sharing more words rank higher); the
 * query is reduced to plain words first, so its punctuation or operators are never syntax.
 * Searches return at most `limit` entries (default 10) with their `score`. `deleteMemories`
 * forgets a user's or a session's entries in one statement (on SQLite the FTS5 index follows
 * through its triggers, so a forgotten word is gone from the index too).
 *
 * @example
 * ```ts
 * const memory = new SqlMemoryService({ db }); // db: your Kysely instance
 * await memory.addSessionToMemory(session);
 * const { memories } = await memory.searchMemory({ appName, userId, query: 'trip to Kyoto' });
 * ```
 */
export class SqlMemoryService implements MemoryService {
  /** The caller's instance, for raw SQL (which names the schema itself) and migrations. */
  readonly #root: Kysely<MemoryDatabase>;
  /** The same, with the schema applied to query-builder statements. */
  readonly #db: Kysely<MemoryDatabase>;
  readonly #dialect: SqlDialect;
  readonly #location: SqlTablesLocation;
  readonly #textSearchConfig: string;
  readonly #autoMigrate: boolean;
  readonly #migrate: () => Promise<void>;

  constructor(options: SqlMemoryServiceOptions) {
    const tables = storeTables(options.db, {
      dialect: options.dialect,
      unsupported: (adapter) => new UnsupportedMemoryDialectError({ adapter }),
      migrations: (dialect) => memoryTableMigrations({ dialect, schema: options.schema }),
    });
    this.#dialect = tables.dialect;
    this.#migrate = tables.migrate;
    checkSchemaOption(this.#dialect, options.schema);
    this.#root = options.db as Kysely<MemoryDatabase>;
    this.#db = inSchema(this.#root, options.schema);
    this.#location = { dialect: this.#dialect, schema: options.schema };
    this.#textSearchConfig = options.textSearchConfig ?? 'english';
    this.#autoMigrate = options.autoMigrate ?? true;
  }

  /** Create or upgrade the tables now. Idempotent; concurrent callers share one run. */
  migrate(): Promise<void> {
    return this.#migrate();
  }

  /** Replace what is remembered of the session by its current events, in one transaction. */
  async addSessionToMemory(session: Session): Promise<void> {
    const records = sessionToRecords(session);
    if (this.#autoMigrate) await this.migrate();
    // Writers refreshing the same session take turns (PostgreSQL would otherwise let two delete
    // the same rows and insert them twice, one failing on the unique key however often retried).
    // The retry is left for writers that take no lock: an older version during a rolling deploy.
    const { appName, userId, id } = session;
    const key = [this.#location.schema ?? '', ENTRIES_TABLE, appName, userId, id].join('\u0000');
    await retryOnUniqueViolation(MAX_ATTEMPTS, () =>
      this.#db.transaction().execute(async (trx) => {
        await lockKeyForTransaction(trx, this.#dialect, key);
        await trx
          .deleteFrom(ENTRIES_TABLE)
          .where('app_name', '=', session.appName)
          .where('user_id', '=', session.userId)
          .where('session_id', '=', session.id)
          .execute();
        for (let start = 0; start < records.length; start += INSERT_BATCH) {
          await this.#insert(trx, session, records.slice(start, start + INSERT_BATCH));
        }
      }),
    );
  }

  async searchMemory(request: SearchMemoryRequest): Promise<SearchMemoryResponse> {
    const words = queryWords(request.query);
    const limit = searchLimit(request.limit);
    if (words.length === 0 || limit === 0) return { memories: [] };
    if (this.#autoMigrate) await this.migrate();
    const rows =
      this.#dialect === 'postgres'
        ? await this.#searchPostgres(request, words, limit)
        : await this.#searchSqlite(request, words, limit);
    return { memories: rows.map(toEntry) };
  }

  /**
   * Forget every entry of the user in the app, or only those of `sessionId`, in one statement.
   * Refuses a request without an app or a user (`InvalidArgumentError`) before touching anything.
   */
  async deleteMemories(request: DeleteMemoriesRequest): Promise<DeleteMemoriesResponse> {
    validateDeleteMemoriesRequest(request);
    if (this.#autoMigrate) await this.migrate();
    let query = this.#db
      .deleteFrom(ENTRIES_TABLE)
      .where('app_name', '=', request.appName)
      .where('user_id', '=', request.userId);
    if (request.sessionId !== undefined) query = query.where('session_id', '=', request.sessionId);
    const result = await query.executeTakeFirst();
    return { deletedCount: Number(result.numDeletedRows) };
  }

  async #insert(
    trx: Transaction<MemoryDatabase>,
    session: Session,
    records: MemoryRecord[],
  ): Promise<void> {
    if (records.length === 0) return;
    const values = records.map((r) => ({
      app_name: session.appName,
      user_id: session.userId,
      session_id: session.id,
      event_id: r.eventId,
      author: r.entry.author ?? null,
      timestamp: r.entry.timestamp ?? 0,
      content: JSON.stringify(r.entry.content),
      search_text: r.text,
    }));
    if (this.#dialect === 'sqlite') {
      await trx.insertInto(ENTRIES_TABLE).values(values).execute();
      return;
    }
    const config = this.#textSearchConfig;
    await trx
      .insertInto(ENTRIES_TABLE)
      .values(
        values.map((v) => ({
          ...v,
          search_vector: sql<string>`to_tsvector(cast(${config} as regconfig), ${v.search_text})`,
        })),
      )
      .execute();
  }

  async #searchSqlite(
    request: SearchMemoryRequest,
    words: string[],
    limit: number,
  ): Promise<ScoredRow[]> {
    // Each word is quoted: FTS5 reads it as a plain string, never as an operator.
    const match = words.map((w) => `"${w}"`).join(' OR ');
    const fts = sql.table(FTS_TABLE);
    const result = await sql<ScoredRow>`
      select e.session_id, e.author, e.timestamp, e.content, -bm25(${fts}) as score
      from ${fts} join ${sql.table(ENTRIES_TABLE)} e on e.id = ${fts}.rowid
      where ${fts} match ${match} and e.app_name = ${request.appName} and e.user_id = ${request.userId}
      order by bm25(${fts}), e.timestamp desc
      limit ${limit}`.execute(this.#root);
    return result.rows;
  }

  async #searchPostgres(
    request: SearchMemoryRequest,
    words: string[],
    limit: number,
  ): Promise<ScoredRow[]> {
    // Words hold letters and digits only, so joining them with `|` is a valid tsquery.
    const query = words.join(' | ');
    const result = await sql<ScoredRow>`
      select e.session_id, e.author, e.timestamp, e.content, ts_rank(e.search_vector, q) as score
      from ${qualifiedTable(ENTRIES_TABLE, this.#location.schema)} e, to_tsquery(cast(${this.#textSearchConfig} as regconfig), ${query}) q
      where e.app_name = ${request.appName} and e.user_id = ${request.userId} and e.search_vector @@ q
      order by score desc, e.timestamp desc
      limit ${limit}`.execute(this.#root);
    return result.rows;
  }
}

interface ScoredRow {
  session_id: string;
  author: string | null;
  timestamp: number | string;
  content: string;
  score: number | string;
}

function toEntry(row: ScoredRow): MemoryEntry {
  return {
    content: JSON.parse(row.content) as Content,
    ...(row.author !== null ? { author: row.author } : {}),
    timestamp: Number(row.timestamp),
    sessionId: row.session_id,
    score: Number(row.score),
  };
}
