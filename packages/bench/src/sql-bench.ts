import type { BenchRow } from './report/row';

/** What the SQL part contributes: table rows, and its raw result for the JSON file. */
export interface SqlBenchOutcome {
  rows: BenchRow[];
  raw: unknown;
}

function isBenchRow(value: unknown): value is BenchRow {
  if (typeof value !== 'object' || value === null) return false;
  const row = value as Record<string, unknown>;
  return (
    typeof row.label === 'string' &&
    typeof row.unit === 'string' &&
    ('ours' in row || 'theirs' in row)
  );
}

/**
 * Run the sessions engineer's SQL session store benchmark (`src/session-sql.ts`, exporting
 * `runSessionSqlBench(options?)`) and turn its result into table rows.
 */
export async function runSqlBench(quick: boolean): Promise<SqlBenchOutcome> {
  const specifier = './session-sql';
  const module = (await import(specifier)) as {
    runSessionSqlBench?: (options?: { quick?: boolean }) => unknown;
  };
  if (typeof module.runSessionSqlBench !== 'function') {
    throw new Error('src/session-sql.ts does not export runSessionSqlBench');
  }
  const raw = await module.runSessionSqlBench({ quick });
  const candidates: unknown[] = Array.isArray(raw)
    ? raw
    : typeof raw === 'object' && raw !== null && Array.isArray((raw as { rows?: unknown }).rows)
      ? (raw as { rows: unknown[] }).rows
      : [];
  return { rows: candidates.filter(isBenchRow), raw };
}
