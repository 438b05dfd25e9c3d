/** `pnpm --filter @adk/bench bench:mcp [-- --quick]`: the MCP benchmark alone, as a table. */
import { runMcpBench } from './mcp-bench';
import { renderTable } from './report/table';

const { rows, raw } = await runMcpBench({ quick: process.argv.includes('--quick') });
console.log(renderTable(rows));
console.log(
  `\ncalls: ours ${raw.ours.length}, raw SDK ${raw.rawSdk.length}, @google/adk ${raw.googleAdk.length}`,
);
