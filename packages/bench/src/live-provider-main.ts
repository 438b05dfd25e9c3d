/** `pnpm --filter @adk/bench bench:live [-- --quick]`: the live-path benchmark alone, as a table. */
import { runLiveProviderBench } from './live-provider-bench';
import { renderTable } from './report/table';

const { rows } = await runLiveProviderBench({ quick: process.argv.includes('--quick') });
// The table's second column is the bare ws relay here, not @google/adk.
console.log(renderTable(rows).replace('@google/adk 2.0.0', 'bare ws relay    '));
