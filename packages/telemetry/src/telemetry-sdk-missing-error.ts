import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.TelemetrySdkMissingError');

/**
 * `startTelemetry` needs `@opentelemetry/sdk-node`, an optional peer dependency that is not
 * installed (or cannot be loaded). `setupTelemetry` works without it, on a tracer and meter
 * provider the application registers itself.
 */
export class TelemetrySdkMissingError extends AdkError {
  private readonly [MARKER] = true;
  /** The npm package to install. */
  readonly packageName = '@opentelemetry/sdk-node';

  constructor(options: { cause?: unknown }) {
    super('TelemetrySdkMissingError', 'TELEMETRY_SDK_MISSING', {
      message:
        'startTelemetry() needs the optional peer dependency @opentelemetry/sdk-node, which is not installed: npm install @opentelemetry/sdk-node@~0.223.0 (or call setupTelemetry() with your own OpenTelemetry setup).',
      cause: options.cause,
    });
  }

  static override isInstance(error: unknown): error is TelemetrySdkMissingError {
    return AdkError.hasMarker(error, MARKER);
  }
}
