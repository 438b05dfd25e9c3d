import { sql, type Kysely } from 'kysely';

import { VEC_TABLE_PREFIX } from './semantic-tables';
import { toFloat32Bytes } from './vector-bytes';

/** sqlite-vec's limit on `k` of one nearest-neighbour query. */
export const SQLITE_VEC_MAX_K = 4096;

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

/** Adds (or replaces) the vectors of rows `ids` in the vec table of their length. */
export async function putVectors(
  db: Kysely<unknown>,
  rows: readonly { id: number; userKey: string; vector: readonly number[] }[],
): Promise<void> {
  const created = new Set<number>();
  for (const row of rows) {
    const dimensions = row.vector.length;
    const table = vecTable(dimensions);
    if (!created.has(dimensions)) {
      // Cosine distance; the user is a partition key, so a search reads one user's vectors only.
      await sql`create virtual table if not exists ${table} using vec0(
        user_key text partition key, embedding float[${sql.raw(String(dimensions))}] distance_metric=cosine)`.execute(
        db,
      );
      created.add(dimensions);
    }
    await sql`delete from ${table} where rowid = ${BigInt(row.id)}`.execute(db);
    await sql`insert into ${table}(rowid, user_key, embedding)
      values (${BigInt(row.id)}, ${row.userKey}, ${toFloat32Bytes(row.vector)})`.execute(db);
  }
}

/** Removes the vectors of rows `ids` from every vec table. */
export async function deleteVectors(db: Kysely<unknown>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  for (const dimensions of await vecTableDimensions(db)) {
    for (const id of ids)
      await sql`delete from ${vecTable(dimensions)} where rowid = ${BigInt(id)}`.execute(db);
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
