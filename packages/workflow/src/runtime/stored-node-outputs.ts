/** The reader of a workflow's unfinished run: shared with the Runner's resume, in `@adk/core`. */
export { readStoredWorkflowRun, type StoredWorkflowRun } from '@adk/core';
