/** `pnpm --filter @adk/bench bench:ai-sdk [-- --quick]`: the AI SDK adapter benchmark alone. */
import { runAiSdkBench } from './ai-sdk-bench';
import { renderTable } from './report/table';

console.log(renderTable(await runAiSdkBench({ quick: process.argv.includes('--quick') })));
