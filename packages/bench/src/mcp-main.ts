/** `pnpm --filter @adk/bench bench:mcp [-- --quick]`: the MCP benchmark alone, as a table. */
import { runMcpBench } from './mcp-bench';
import { renderTable } from './report/table';

const { rows, raw } = await runMcpBench({ quick: process.argv.includes('--quick') });
console.log(renderTable(rows));
console.log(
  `\nruns of ours and the raw SDK: ${raw.ours.length} × ${raw.ours[0]?.length ?? 0} calls; @google/adk: ${raw.googleAdk.length} calls`,
);
