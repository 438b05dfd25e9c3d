/**
 * The semantic memory benchmark (issue 33): search latency by meaning (p50/p95) with 1k, 10k and
 * 100k memories of one user on each path (sqlite-vec, exact SQLite, exact PostgreSQL), and ingestion throughput (rows with precomputed 768-dimension vectors; the
 * embedding model's own time is not included). Run alone with
 * `pnpm --filter @adk/bench bench:memory [-- --quick] [--path=postgres-exact]` (quick: 1k and 10k;
 * `--path` measures only the named paths), or in `pnpm bench`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadSqliteVec, SqlVectorStore, type MemoryDraft } from '@adk/memory';
import { conceptVector } from '@adk/memory/testing';
import { createRequire } from 'node:module';

import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';

import { POSTGRES_URL } from './jobs-bench-urls';
import { elapsedMs, quantile } from './stats';

// The bench does not depend on the drivers' type packages (as jobs-bench-urls.ts and pg-client.ts).
const require = createRequire(import.meta.url);
const Database = require('better-sqlite3') as new (path: string) => SqliteDatabase & {
  pragma(text: string): unknown;
  loadExtension(file: string, entryPoint?: string): unknown;
};
interface PgPool {
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
}
const pg = require('pg') as {
  Pool: new (config: { connectionString: string; max: number; options: string }) => PgPool;
};

const DIMENSIONS = 768;
const SEARCHES = 30;
type Path = 'sqlite-vec' | 'sqlite exact' | 'postgres exact' | 'pgvector';
/** The pgvector rows use a database of their own (the extension is never created in `test`). */
const PGVECTOR_DATABASE = 'adk_bench_pgvector';

/** One measured path and size. */
export interface MemoryBenchRow {
  path: Path;
  entries: number;
  insertsPerSecond: number;
  searchP50Ms: number;
  searchP95Ms: number;
}

async function open(
  path: Path,
  temp: string,
): Promise<{ store: SqlVectorStore; filled?: () => Promise<void>; close: () => Promise<void> }> {
  if (path === 'sqlite-vec' || path === 'sqlite exact') {
    const database = new Database(join(temp, `memory-${randomBytes(4).toString('hex')}.db`));
    database.pragma('journal_mode = WAL');
    if (path === 'sqlite-vec' && !(await loadSqliteVec(database)))
      throw new Error('sqlite-vec did not load');
    const db = new Kysely({ dialect: new SqliteDialect({ database }) });
    return { store: new SqlVectorStore({ db }), close: () => db.destroy() };
  }
  const schema = `adk_bench_memory_${randomBytes(4).toString('hex')}`;
  let url = POSTGRES_URL;
  if (path === 'pgvector') {
    const admin = new pg.Pool({ connectionString: POSTGRES_URL, max: 1, options: '' });
    // Exists already after the first run.
    await sql(admin, `create database ${PGVECTOR_DATABASE}`).catch(() => undefined);
    await admin.end();
    const parsed = new URL(POSTGRES_URL);
    parsed.pathname = `/${PGVECTOR_DATABASE}`;
    url = parsed.toString();
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 2,
    options: `-c search_path=${schema}`,
  });
  await pool.query(`create schema ${schema}`);
  if (path === 'pgvector') await pool.query('create extension if not exists vector schema public');
  const db = new Kysely({ dialect: new PostgresDialect({ pool: pool as never }) });
  const store = new SqlVectorStore({ db, dimensions: DIMENSIONS });
  await store.migrate();
  if (store.searchPath !== path) throw new Error(`expected ${path}, got ${store.searchPath}`);
  return {
    store,
    // What autovacuum does after a bulk load: without statistics the planner misjudges pgvector.
    filled: () => sql(pool, 'analyze adk_semantic_memories'),
    close: async () => {
      await sql(pool, `drop schema ${schema} cascade`);
      await db.destroy();
    },
  };
}

const sql = (pool: PgPool, text: string) => pool.query(text).then(() => undefined);

async function pgvectorAvailable(): Promise<boolean> {
  const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 1, options: '' });
  try {
    const result = (await pool.query(
      "select 1 from pg_available_extensions where name = 'vector'",
    )) as { rows: unknown[] };
    return result.rows.length > 0;
  } finally {
    await pool.end();
  }
}

const TOPICS = [
  'billing invoices',
  'flight vacation',
  'dog puppy',
  'guitar concert',
  'coffee espresso',
  'doctor health',
];

function draft(i: number): MemoryDraft {
  const text = `note ${i} about ${TOPICS[i % TOPICS.length]} and shelf ${i % 997}`;
  return {
    appName: 'bench',
    userId: 'u',
    kind: 'fact',
    text,
    content: { role: 'user', parts: [{ text }] },
    timestamp: 1_700_000_000_000 + i,
    embedding: conceptVector(text, DIMENSIONS),
    embeddingModel: 'concept',
  };
}

async function measure(path: Path, entries: number, temp: string): Promise<MemoryBenchRow> {
  const { store, filled, close } = await open(path, temp);
  try {
    await store.migrate();
    const start = process.hrtime.bigint();
    for (let from = 0; from < entries; from += 1000) {
      const batch: MemoryDraft[] = [];
      for (let i = from; i < Math.min(entries, from + 1000); i++) batch.push(draft(i));
      await store.insert(batch);
    }
    const insertsPerSecond = entries / (elapsedMs(start) / 1000);
    await filled?.();
    const latencies: number[] = [];
    for (let s = 0; s < SEARCHES; s++) {
      const vector = conceptVector(`my ${TOPICS[s % TOPICS.length]} plans ${s}`, DIMENSIONS);
      const t = process.hrtime.bigint();
      await store.searchByVector({
        appName: 'bench',
        userId: 'u',
        vector,
        model: 'concept',
        limit: 10,
        minSimilarity: 0.3,
      });
      latencies.push(elapsedMs(t));
    }
    return {
      path,
      entries,
      insertsPerSecond: Math.round(insertsPerSecond),
      searchP50Ms: Number(quantile(latencies, 0.5).toFixed(2)),
      searchP95Ms: Number(quantile(latencies, 0.95).toFixed(2)),
    };
  } finally {
    await close();
  }
}

const PATHS: readonly Path[] = ['sqlite-vec', 'sqlite exact', 'postgres exact', 'pgvector'];

/** Every path (or those named) at every size (quick: 1k and 10k). */
export async function runMemoryBench(
  options: { quick?: boolean; paths?: readonly Path[] } = {},
): Promise<MemoryBenchRow[]> {
  const sizes = options.quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
  const temp = mkdtempSync(join(tmpdir(), 'adk-memory-bench-'));
  const rows: MemoryBenchRow[] = [];
  try {
    for (const path of options.paths ?? PATHS) {
      if (path === 'pgvector' && !(await pgvectorAvailable())) {
        console.error('[bench] memory pgvector: the server has no pgvector, rows skipped');
        continue;
      }
      for (const entries of sizes) {
        console.error(`[bench] memory ${path} ${entries}`);
        rows.push(await measure(path, entries, temp));
      }
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  return rows;
}

/** A Markdown table of the rows. */
export function renderMemoryBench(rows: readonly MemoryBenchRow[]): string {
  const lines = [
    '| path | memories (one user) | ingestion (rows/s) | search p50 (ms) | search p95 (ms) |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.path} | ${r.entries} | ${r.insertsPerSecond} | ${r.searchP50Ms} | ${r.searchP95Ms} |`,
    ),
  ];
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // `--path=postgres-exact` (repeatable) measures only the named paths.
  const named = process.argv
    .filter((a) => a.startsWith('--path='))
    .map((a) => a.slice('--path='.length).replace('-', ' ') as Path);
  for (const path of named)
    if (!PATHS.includes(path)) throw new Error(`unknown path ${path}; one of ${PATHS.join(', ')}`);
  const rows = await runMemoryBench({
    quick: process.argv.includes('--quick'),
    ...(named.length > 0 ? { paths: named } : {}),
  });
  console.log(
    `\nSemantic memory (${DIMENSIONS} dimensions, top 10 by meaning):\n\n${renderMemoryBench(rows)}`,
  );
}
