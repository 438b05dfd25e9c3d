import { metrics, trace, type MeterProvider, type TracerProvider } from '@opentelemetry/api';

import { resolveCaptureContent } from './content-capture';
import { DiagnosticsBridge } from './diagnostics-bridge';
import { Instruments } from './instruments';
import { JobSpans } from './jobs';
import { TELEMETRY_SCOPE, TELEMETRY_VERSION } from './scope';

/** Options of {@link setupTelemetry}. */
export interface SetupTelemetryOptions {
  /** Where spans go; the global tracer provider (`trace.setGlobalTracerProvider`) when omitted. */
  tracerProvider?: TracerProvider;
  /** Where metrics go; the global meter provider when omitted. `false` turns metrics off. */
  meterProvider?: MeterProvider | false;
  /**
   * Record prompts, responses, tool arguments and tool results on spans. Default: off, unless
   * `ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS` or `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`
   * is `true`.
   */
  captureContent?: boolean;
  /**
   * Trace the background jobs of `@adk/jobs` too (default true): one `run_job <app>` span per
   * attempt, parent of the attempt's `invocation`, and the `adk.job.duration` and
   * `adk.job.outcomes` metrics. Costs nothing when no job runs.
   */
  jobs?: boolean;
}

/** What {@link setupTelemetry} returns. */
export interface TelemetryHandle {
  /**
   * Stop listening (spans still open are ended) and flush the providers that were given. Does not
   * shut down providers you own; {@link startTelemetry} does shut down the SDK it started.
   */
  shutdown(): Promise<void>;
}

interface Flushable {
  forceFlush?: () => Promise<void>;
}

/**
 * Trace every run, agent, model call and tool call with OpenTelemetry, and record duration and
 * token metrics. Listens to core's `node:diagnostics_channel` lifecycle events, so agents need no
 * change; without this call the channels have no subscriber and cost nothing.
 *
 * Spans: `invocation` > `invoke_agent <name>` > `call_llm` and `execute_tool <name>`, with the
 * GenAI semantic-convention attributes the official ADKs use; a background job's attempt
 * (`@adk/jobs`) is a `run_job <app>` span above its run's `invocation`.
 *
 * @example
 * ```ts
 * import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
 * const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
 * const telemetry = setupTelemetry({ tracerProvider });
 * // ... run agents ...
 * await telemetry.shutdown();
 * ```
 */
export function setupTelemetry(options: SetupTelemetryOptions = {}): TelemetryHandle {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(
    TELEMETRY_SCOPE,
    TELEMETRY_VERSION,
  );
  const meterProvider =
    options.meterProvider === false
      ? undefined
      : (options.meterProvider ?? metrics.getMeterProvider());
  const instruments = meterProvider
    ? new Instruments(meterProvider.getMeter(TELEMETRY_SCOPE, TELEMETRY_VERSION))
    : undefined;
  const jobs = options.jobs === false ? undefined : new JobSpans({ tracer, instruments });
  const bridge = new DiagnosticsBridge({
    tracer,
    instruments,
    captureContent: resolveCaptureContent(options.captureContent),
    ...(jobs ? { runParent: (m) => jobs.parentOfRun(m.appName, m.userId, m.sessionId) } : {}),
  });
  jobs?.start();
  bridge.start();
  let stopped = false;
  return {
    async shutdown() {
      if (stopped) return;
      stopped = true;
      bridge.stop();
      jobs?.stop();
      await Promise.all(
        [options.tracerProvider, options.meterProvider || undefined].flatMap((provider) => {
          const flushable = provider as Flushable | undefined;
          return typeof flushable?.forceFlush === 'function' ? [flushable.forceFlush()] : [];
        }),
      );
    },
  };
}
