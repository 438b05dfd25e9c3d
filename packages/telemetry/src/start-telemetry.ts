import { setupTelemetry, type TelemetryHandle } from './setup-telemetry';
import { TelemetrySdkMissingError } from './telemetry-sdk-missing-error';

/** Options of {@link startTelemetry}. */
export interface StartTelemetryOptions {
  /**
   * Options of `@opentelemetry/sdk-node`'s `NodeSDK` (its `NodeSDKConfiguration`: exporters, span
   * processors, metric readers, resource...), passed to it as given. Unset parts follow the SDK's
   * defaults and `OTEL_*` environment variables. Typed loosely on purpose: the SDK is an optional
   * peer, and naming its types here would break the type check of projects that do not install it.
   */
  sdk?: { readonly [option: string]: unknown } | undefined;
  /** Record prompts, responses and tool payloads on spans (see `setupTelemetry`). */
  captureContent?: boolean | undefined;
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
  const { NodeSDK } = await import('@opentelemetry/sdk-node').catch((cause: unknown) => {
    throw new TelemetrySdkMissingError({ cause });
  });
  const sdk = new NodeSDK(options.sdk as ConstructorParameters<typeof NodeSDK>[0]);
  sdk.start();
  const handle = setupTelemetry({ captureContent: options.captureContent });
  return {
    async shutdown() {
      await handle.shutdown();
      await sdk.shutdown();
    },
  };
}
