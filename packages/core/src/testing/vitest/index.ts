/**
 * The conformance suites of ADK's contracts, for implementers of a session store, a memory or
 * artifact service, a credential service or a model provider. Import from
 * `@adk/core/testing/vitest`: each suite declares vitest tests (`describe`/`it`/`expect` from
 * `vitest`), so it needs vitest 3 or later installed and must be called inside a vitest test file.
 *
 * The test doubles (`FakeModel`, `eventWithEveryField`) are at `@adk/core/testing` and need no
 * test runner.
 */
export { artifactServiceConformance } from '../artifact-conformance';
export { credentialServiceConformance } from '../credential-conformance';
export {
  memoryServiceConformance,
  type MemoryServiceConformanceOptions,
} from '../memory-conformance';
export { modelProviderConformance } from '../provider-conformance';
export type {
  ConformanceBackend,
  ConformanceReply,
  ConformanceRequestView,
  ConformanceToolCall,
  ModelProviderConformanceOptions,
} from '../provider-conformance-types';
export { sessionServiceConformance } from '../session-conformance';
export { liveRunConformance } from '../live-run-conformance';
