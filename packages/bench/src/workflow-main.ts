/** `pnpm --filter @adk/bench bench:workflow [-- --quick]`: the workflow rows alone. */
import { renderTable } from './report/table';
import { runWorkflowBench } from './workflow-bench';

const rows = await runWorkflowBench({ quick: process.argv.includes('--quick') });
console.log(renderTable(rows));
console.log(
  JSON.stringify(rows.map((row) => ({ label: row.label, ours: row.ours, theirs: row.theirs }))),
);
