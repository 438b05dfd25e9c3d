import { sql, type Kysely } from 'kysely';

import { VEC_TABLE_PREFIX } from './semantic-tables';
import { toFloat32Bytes } from './vector-bytes';

/** sqlite-vec's limit on `k` of one nearest-neighbour query. */
export const SQLITE_VEC_MAX_K = 4096;
/** Rows per `insert` into a vec table (3 parameters each, well under SQLite's limit). */
const VEC_INSERT_BATCH = 200;

/** Whether the connection has sqlite-vec loaded (`vec_version()` answers). */
export async function hasSqliteVec(db: Kysely<unknown>): Promise<boolean> {
  try {
    await sql`select vec_version()`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/** The partition key of one user in the vec tables. */
export function userKey(appName: string, userId: string): string {
  return JSON.stringify([appName, userId]);
}

const vecTable = (dimensions: number) => sql.table(`${VEC_TABLE_PREFIX}${Math.floor(dimensions)}`);

/** The vector lengths that have a vec table. */
export async function vecTableDimensions(db: Kysely<unknown>): Promise<number[]> {
  const { rows } = await sql<{ name: string }>`select name from sqlite_master
    where type = 'table' and name like ${`${VEC_TABLE_PREFIX}%`}`.execute(db);
  // vec0's shadow tables (`..._256_chunks`) are not numbers after the prefix.
  return rows
    .map((r) => Number(r.name.slice(VEC_TABLE_PREFIX.length)))
    .filter((n) => Number.isInteger(n) && n > 0);
}

/**
 * Adds the vectors of rows to the vec table of their length (created on first use); `replace`
 * removes a row's previous vector first (an update).
 */
export async function putVectors(
  db: Kysely<unknown>,
  rows: readonly { id: number; userKey: string; vector: readonly number[] }[],
  replace: boolean,
): Promise<void> {
  const byLength = new Map<number, (typeof rows)[number][]>();
  for (const row of rows) {
    const group = byLength.get(row.vector.length);
    if (group) group.push(row);
    else byLength.set(row.vector.length, [row]);
  }
  for (const [dimensions, group] of byLength) {
    const table = vecTable(dimensions);
    // Cosine distance; the user is a partition key, so a search reads one user's vectors only.
    await sql`create virtual table if not exists ${table} using vec0(
      user_key text partition key, embedding float[${sql.raw(String(dimensions))}] distance_metric=cosine)`.execute(
      db,
    );
    if (replace) {
      for (const row of group)
        await sql`delete from ${table} where rowid = ${BigInt(row.id)}`.execute(db);
    }
    for (let start = 0; start < group.length; start += VEC_INSERT_BATCH) {
      const values = group
        .slice(start, start + VEC_INSERT_BATCH)
        .map((row) => sql`(${BigInt(row.id)}, ${row.userKey}, ${toFloat32Bytes(row.vector)})`);
      await sql`insert into ${table}(rowid, user_key, embedding) values ${sql.join(values)}`.execute(
        db,
      );
    }
  }
}

/** Removes the vectors of rows `ids` from every vec table. */
export async function deleteVectors(db: Kysely<unknown>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  for (const dimensions of await vecTableDimensions(db)) {
    for (let start = 0; start < ids.length; start += 500) {
      const batch = ids.slice(start, start + 500).map((id) => sql`${BigInt(id)}`);
      await sql`delete from ${vecTable(dimensions)} where rowid in (${sql.join(batch)})`.execute(
        db,
      );
    }
  }
}

/** The `k` nearest rows of one user: ids and cosine similarity, best first. */
export async function nearestVectors(
  db: Kysely<unknown>,
  query: { userKey: string; vector: readonly number[]; k: number },
): Promise<{ id: number; similarity: number }[]> {
  const dimensions = query.vector.length;
  if (!(await vecTableDimensions(db)).includes(dimensions)) return [];
  const { rows } = await sql<{ id: number; distance: number }>`
    select rowid as id, distance from ${vecTable(dimensions)}
    where embedding match ${toFloat32Bytes(query.vector)} and k = ${Math.min(query.k, SQLITE_VEC_MAX_K)}
      and user_key = ${query.userKey}
    order by distance`.execute(db);
  return rows.map((r) => ({ id: Number(r.id), similarity: 1 - r.distance }));
}
