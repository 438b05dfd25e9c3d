/**
 * Test doubles for `@adk/jobs`: a manual clock. Import from `@adk/jobs/testing`; nothing here
 * needs a test runner.
 *
 * The job-store conformance suite is a vitest suite and lives at `@adk/jobs/testing/vitest`.
 */
export type { MakeJobStore } from './conformance-fixtures';
export { ManualClock } from './manual-clock';
