/**
 * Test helpers for `@adk/jobs`: the job-store conformance suite and a manual clock.
 * Import from `@adk/jobs/testing`.
 */
export { jobStoreConformance } from './job-store-conformance';
export type { MakeJobStore } from './conformance-fixtures';
export { ManualClock } from './manual-clock';
