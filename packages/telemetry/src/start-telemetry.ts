import type { NodeSDKConfiguration } from '@opentelemetry/sdk-node';

import { setupTelemetry, type TelemetryHandle } from './setup-telemetry';

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
 * call. `shutdown()` stops listening and shuts the SDK down, flushing what it buffered.
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
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
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
