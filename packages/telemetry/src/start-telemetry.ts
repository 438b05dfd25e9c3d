import type { NodeSDKConfiguration } from '@opentelemetry/sdk-node';

import { setupTelemetry, type TelemetryHandle } from './setup-telemetry';
import { TelemetrySdkMissingError } from './telemetry-sdk-missing-error';

/** Options of {@link startTelemetry}. */
export interface StartTelemetryOptions {
  /**
   * Options of `@opentelemetry/sdk-node`'s `NodeSDK` (exporters, span processors, metric readers,
   * resource...). Unset parts follow the SDK's defaults and `OTEL_*` environment variables.
   */
  sdk?: Partial<NodeSDKConfiguration>;
  /** Record prompts, responses and tool payloads on spans (see `setupTelemetry`). */
  captureContent?: boolean;
}

/**
 * Start `@opentelemetry/sdk-node` (an optional peer dependency) and trace ADK with it, in one
 * call. Without that package it throws {@link TelemetrySdkMissingError}. `shutdown()` stops listening and shuts the SDK down, flushing what it buffered.
 *
 * @example
 * ```ts
 * import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
 * const telemetry = await startTelemetry({ sdk: { serviceName: 'my-agent', traceExporter: new OTLPTraceExporter() } });
 * process.on('SIGTERM', () => void telemetry.shutdown());
 * ```
 */
export async function startTelemetry(
  options: StartTelemetryOptions = {},
): Promise<TelemetryHandle> {
  let sdkModule: typeof import('@opentelemetry/sdk-node');
  try {
    sdkModule = await import('@opentelemetry/sdk-node');
  } catch (cause) {
    throw new TelemetrySdkMissingError({ cause });
  }
  const { NodeSDK } = sdkModule;
  const sdk = new NodeSDK(options.sdk);
  sdk.start();
  const handle = setupTelemetry({ captureContent: options.captureContent });
  return {
    async shutdown() {
      await handle.shutdown();
      await sdk.shutdown();
    },
  };
}
