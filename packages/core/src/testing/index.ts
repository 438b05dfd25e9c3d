/**
 * Test helpers for ADK applications and for implementers of ADK contracts: the fake model and
 * the conformance suites. Import from `@adk/core/testing`.
 */
export { artifactServiceConformance } from './artifact-conformance';
export { credentialServiceConformance } from './credential-conformance';
export {
  FakeModel,
  type FakeChunk,
  type FakeFunctionCallsStep,
  type FakeModelOptions,
  type FakeResponder,
  type FakeStep,
} from './fake-model';
export { FakeModelError } from './fake-model-error';
export { fakeFunctionCall, fakeFunctionCalls, fakeText } from './fake-model-responses';
export {
  memoryServiceConformance,
  type MemoryServiceConformanceOptions,
} from './memory-conformance';
export { modelProviderConformance } from './provider-conformance';
export type {
  ConformanceBackend,
  ConformanceReply,
  ConformanceRequestView,
  ConformanceToolCall,
  ModelProviderConformanceOptions,
} from './provider-conformance-types';
export { sessionServiceConformance } from './session-conformance';
export { eventWithEveryField } from './session-conformance-events';
