/** `pnpm --filter @adk/bench bench:openapi [-- --quick]`: the OpenAPI load benchmark alone. */
import { runOpenApiBench } from './openapi-bench';
import { renderTable } from './report/table';

console.log(renderTable(await runOpenApiBench({ quick: process.argv.includes('--quick') })));
