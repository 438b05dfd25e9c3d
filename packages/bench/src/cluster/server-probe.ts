/**
 * Loaded into an `adk api_server` by the server turn profile (`--import`): counts the SQL round
 * trips and transactions the process sends through `pg` (every `Client.query`, pooled or not), and,
 * on SIGUSR2, writes the counts so far to `ADK_PROBE_FILE`.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

interface Counts {
  /** `Client.query` calls: one round trip each. */
  roundTrips: number;
  /** Transactions: explicit (`BEGIN`) ones plus statements sent outside one. */
  transactions: number;
  /** Round trips by the first word of the statement (`SELECT`, `WITH`, `BEGIN`, ...). */
  byKind: Record<string, number>;
  /** Round trips by the connection's `application_name` (the lock's own connection apart). */
  byApplication: Record<string, number>;
}

const counts: Counts = { roundTrips: 0, transactions: 0, byKind: {}, byApplication: {} };
const inTransaction = new WeakSet<object>();

// The same `pg` as the session store's (one copy in this workspace).
const pg = createRequire(import.meta.url)('pg') as {
  Client: { prototype: { query: (...args: unknown[]) => unknown } };
};
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: object, ...args: unknown[]) {
  const [config] = args;
  const text =
    typeof config === 'string' ? config : ((config as { text?: string } | undefined)?.text ?? '');
  const kind = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? '?';
  counts.roundTrips++;
  counts.byKind[kind] = (counts.byKind[kind] ?? 0) + 1;
  const application =
    (this as { connectionParameters?: { application_name?: string } }).connectionParameters
      ?.application_name ?? 'pool';
  counts.byApplication[application] = (counts.byApplication[application] ?? 0) + 1;
  if (kind === 'BEGIN' || kind === 'START') {
    inTransaction.add(this);
    counts.transactions++;
  } else if (kind === 'COMMIT' || kind === 'ROLLBACK') inTransaction.delete(this);
  else if (!inTransaction.has(this)) counts.transactions++;
  return query.apply(this, args);
};

process.on('SIGUSR2', () => {
  const file = process.env.ADK_PROBE_FILE;
  if (file) writeFileSync(file, JSON.stringify(counts));
});
