/**
 * Run the SQL session store benchmark alone and print a table:
 * `pnpm --filter @adk/session-sql bench` (add `--quick` for a smoke run).
 */
import { runSessionSqlBench } from './session-sql';

function format(value: number | undefined, unit: string): string {
  if (value === undefined) return 'n/a';
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(2)} ${unit}`;
}

const quick = process.argv.includes('--quick');
const rows = await runSessionSqlBench({ quick });
console.log('| metric | ours | @google/adk 2.0.0 | ours ÷ theirs |');
console.log('| --- | --- | --- | --- |');
for (const row of rows) {
  console.log(
    `| ${row.label} | ${format(row.ours, row.unit)} | ${format(row.theirs, row.unit)} | ${row.ratio === undefined ? 'n/a' : `${row.ratio.toFixed(2)}x`} |`,
  );
}
