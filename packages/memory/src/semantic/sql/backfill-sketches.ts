import { sql, type Kysely } from 'kysely';

import { fromFloat32Bytes } from './vector-bytes';
import { toVectorSketch } from './vector-sketch';

const BACKFILL_ROWS = 500;

/**
 * Writes the int8 sketch of every row of `table` (PostgreSQL) that has a vector but no sketch yet, in keyset
 * batches of one `update … from (values …)` each (the quantisation is done here, not in SQL).
 */
export async function backfillSketches(db: Kysely<unknown>, table: string): Promise<void> {
  const t = sql.table(table);
  for (let after = -1; ;) {
    const { rows } = await sql<{ id: number | string; embedding: Uint8Array }>`
      select id, embedding from ${t}
      where embedding is not null and embedding_sketch is null and id > ${after}
      order by id limit ${BACKFILL_ROWS}`.execute(db);
    if (rows.length === 0) return;
    const values = rows.map(
      (r) =>
        sql`(cast(${Number(r.id)} as bigint), cast(${toVectorSketch(fromFloat32Bytes(r.embedding))} as bytea))`,
    );
    await sql`update ${t} e set embedding_sketch = v.sketch
      from (values ${sql.join(values)}) as v(id, sketch) where e.id = v.id`.execute(db);
    after = Number(rows[rows.length - 1]!.id);
  }
}
