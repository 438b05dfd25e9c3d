/**
 * Test doubles for ADK applications: the fake model, its response helpers and shared fixtures.
 * Import from `@adk/core/testing`; nothing here needs a test runner, so it works under vitest,
 * `node:test`, jest or a plain script.
 *
 * The conformance suites for implementers of ADK contracts (sessions, memory, artifacts,
 * credentials, model providers) are vitest suites and live at `@adk/core/testing/vitest`.
 */
export { eventWithEveryField } from './event-with-every-field';
export {
  FakeModel,
  type FakeChunk,
  type FakeFunctionCallsStep,
  type FakeModelOptions,
  type FakeResponder,
  type FakeStep,
} from './fake-model';
export {
  FakeLiveConnection,
  FakeLiveModel,
  type FakeLiveMessage,
  type FakeLiveModelOptions,
  type FakeLiveResponder,
  type FakeLiveStep,
} from './fake-live-model';
export { FakeModelError } from './fake-model-error';
export { fakeFunctionCall, fakeFunctionCalls, fakeText } from './fake-model-responses';
export type {
  ConformanceBackend,
  ConformanceReply,
  ConformanceRequestView,
  ConformanceToolCall,
  ModelProviderConformanceOptions,
} from './provider-conformance-types';
