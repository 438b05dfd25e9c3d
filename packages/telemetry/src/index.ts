/**
 * OpenTelemetry tracing and metrics for ADK for TypeScript, fed by core's `node:diagnostics_channel`
 * lifecycle events.
 */
export {
  Attr,
  GEN_AI_SYSTEM,
  JobEventName,
  MetricName,
  SpanName,
  type JobOutcome,
} from './attributes';
export { resolveCaptureContent } from './content-capture';
export { DiagnosticsBridge, type DiagnosticsBridgeOptions } from './diagnostics-bridge';
export { Instruments } from './instruments';
export * from './jobs';
export { TELEMETRY_SCOPE, TELEMETRY_VERSION } from './scope';
export {
  setupTelemetry,
  type SetupTelemetryOptions,
  type TelemetryHandle,
} from './setup-telemetry';
export { startTelemetry, type StartTelemetryOptions } from './start-telemetry';
export { TelemetrySdkMissingError } from './telemetry-sdk-missing-error';
