import { randomUUID } from 'node:crypto';

import { sqliteKysely, temporaryDirectory } from '@adk/test-databases';
import { sql, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';

import { advisoryLockId, lockKeyForTransaction } from '../src';
import { testBackends } from './backends';

const backends = await testBackends();
const postgres = backends.find((backend) => backend.dialect === 'postgres')!;
const temp = temporaryDirectory('adk-sql-kit-lock-key-');
afterAll(() => temp.remove());

/** A promise with its resolver, to let one transaction go on when the test says so. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe.skipIf(!postgres.available)('lockKeyForTransaction on PostgreSQL', () => {
  /** Backends waiting right now for the advisory lock of `key` (as `lockKeyForTransaction` hashes it). */
  const waitingFor = async (db: Awaited<ReturnType<typeof postgres.fresh>>['db'], key: string) => {
    const { rows } = await sql<{ n: string }>`select count(*) as n from pg_locks
      where locktype = 'advisory' and not granted
        and ((classid::bigint << 32) | objid::bigint) = ${advisoryLockId(key)}::bigint`.execute(db);
    return Number(rows[0]!.n);
  };
  /** A key no other test of the database uses at the same time. */
  const newKey = () => `lock-test\u0000${randomUUID()}`;

  it('makes a second transaction on the same key wait until the first one commits', async () => {
    const { db } = await postgres.fresh();
    const key = newKey();
    const order: string[] = [];
    const release = gate();
    const first = db.transaction().execute(async (trx) => {
      await lockKeyForTransaction(trx, 'postgres', key);
      order.push('first locked');
      await release.opened;
      order.push('first ends');
    });
    await expect.poll(() => order).toEqual(['first locked']);
    const second = db.transaction().execute(async (trx) => {
      await lockKeyForTransaction(trx, 'postgres', key);
      order.push('second locked');
    });
    // The second is seen waiting on the lock by PostgreSQL itself, then let through.
    await expect.poll(() => waitingFor(db, key)).toBe(1);
    expect(order).toEqual(['first locked']);
    release.open();
    await Promise.all([first, second]);
    expect(order).toEqual(['first locked', 'first ends', 'second locked']);
  });

  it('lets a transaction on another key through, and frees the key when a transaction fails', async () => {
    const { db } = await postgres.fresh();
    const [a, b] = [newKey(), newKey()];
    const release = gate();
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const first = db.transaction().execute(async (trx) => {
      await lockKeyForTransaction(trx, 'postgres', a);
      holding();
      await release.opened;
    });
    await held;
    // Another key: taken while the first is held.
    await db.transaction().execute((trx) => lockKeyForTransaction(trx, 'postgres', b));
    release.open();
    await first;
    // A rollback releases the lock as a commit does.
    await expect(
      db.transaction().execute(async (trx) => {
        await lockKeyForTransaction(trx, 'postgres', a);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await db.transaction().execute((trx) => lockKeyForTransaction(trx, 'postgres', a));
  });
});

describe('lockKeyForTransaction on SQLite', () => {
  it('sends nothing: a write transaction there already excludes every other writer', async () => {
    const seen: RootOperationNode['kind'][] = [];
    const recorder: KyselyPlugin = {
      transformQuery: ({ node }) => {
        seen.push(node.kind);
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    const db = sqliteKysely(temp.file('lock.db'), { plugins: [recorder] });
    try {
      await db.transaction().execute(async (trx) => {
        await lockKeyForTransaction(trx, 'sqlite', 'key');
        await sql`select 1`.execute(trx);
      });
      expect(seen).toEqual(['RawNode']);
    } finally {
      await db.destroy();
    }
  });
});
