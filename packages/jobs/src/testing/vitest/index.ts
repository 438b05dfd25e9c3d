/**
 * The conformance suite of the `JobStore` contract, for implementers of a job store. Import from
 * `@adk/jobs/testing/vitest`: the suite declares vitest tests, so it needs vitest 3 or later
 * installed and must be called inside a vitest test file.
 */
export type { MakeJobStore } from '../conformance-fixtures';
export { jobStoreConformance } from '../job-store-conformance';
