/** Instrumentation scope (tracer and meter name) of every span and metric this package records. */
export const TELEMETRY_SCOPE = '@adk/telemetry';
/** Version reported with the instrumentation scope. */
export const TELEMETRY_VERSION = '0.1.0';
