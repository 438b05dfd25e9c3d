import { describe } from 'vitest';

import type { MakeJobStore, MakeLeasedJobStore } from './conformance-fixtures';
import { commonJobStoreConformance } from './job-store-conformance-common';
import { queueEngineConformance } from './job-store-conformance-engine';
import { leasedJobStoreConformance } from './job-store-conformance-leased';
import type { MakeQueueEngineStore } from './job-store-conformance-engine';

/** Which part of the contract beyond the common one a store is checked against. */
export type JobStoreConformanceKind =
  | { kind: 'leased'; makeStore: MakeLeasedJobStore }
  | { kind: 'queue-engine'; makeStore: MakeQueueEngineStore };

/**
 * The job-store contract as a vitest suite. Run it against every implementation:
 *
 * @example
 * ```ts
 * import { jobStoreConformance } from '@adk/jobs/testing/vitest';
 * jobStoreConformance('InMemoryJobStore', (clock) => new InMemoryJobStore({ clock }));
 * jobStoreConformance('GraphileJobStore', { kind: 'queue-engine', makeStore: () => store });
 * ```
 *
 * Every store passes the common part (enqueue, get, list, cancel, dedupe). A polled store
 * (`LeasedJobStore`, given as a plain function) also passes the claim and lease part on a
 * `ManualClock`; a queue-engine store passes the engine part, where a real `JobWorker` runs jobs
 * the engine pushes, in real time. `makeStore` is called once per test; every test uses its own
 * queue names, so stores sharing one database or Redis do not see each other's jobs.
 */
export function jobStoreConformance(
  label: string,
  store: MakeLeasedJobStore | JobStoreConformanceKind,
): void {
  const spec: JobStoreConformanceKind =
    typeof store === 'function' ? { kind: 'leased', makeStore: store } : store;
  describe(`JobStore conformance: ${label}`, () => {
    commonJobStoreConformance(spec.makeStore as MakeJobStore);
    if (spec.kind === 'leased') leasedJobStoreConformance(spec.makeStore);
    else queueEngineConformance(spec.makeStore);
  });
}
