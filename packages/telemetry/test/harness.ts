import {
  MeterProvider,
  MetricReader,
  type DataPoint,
  type Histogram,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

import { setupTelemetry, type TelemetryHandle } from '../src/setup-telemetry';

/** A metric reader that only collects on demand. */
class OnDemandReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** Telemetry wired to in-memory span and metric collection, for tests. */
export interface TelemetryHarness {
  telemetry: TelemetryHandle;
  exporter: InMemorySpanExporter;
  /** Finished spans. */
  spans(): ReadableSpan[];
  /** The one finished span with this name (fails when there are none or several). */
  span(name: string): ReadableSpan;
  /** Data points of a metric, by name. */
  metric(name: string): Promise<DataPoint<number | Histogram>[]>;
  close(): Promise<void>;
}

/** Set up telemetry with in-memory exporters. */
export function harness(
  options: { captureContent?: boolean; jobs?: boolean } = {},
): TelemetryHarness {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const telemetry = setupTelemetry({
    tracerProvider,
    meterProvider,
    captureContent: options.captureContent ?? false,
    ...(options.jobs === undefined ? {} : { jobs: options.jobs }),
  });
  const spans = () => exporter.getFinishedSpans();
  return {
    telemetry,
    exporter,
    spans,
    span(name) {
      const found = spans().filter((s) => s.name === name);
      if (found.length !== 1)
        throw new TypeError(
          `expected one span "${name}", found ${found.length}: ${spans()
            .map((s) => s.name)
            .join(', ')}`,
        );
      return found[0]!;
    },
    async metric(name) {
      const { resourceMetrics } = await reader.collect();
      const points: DataPoint<number | Histogram>[] = [];
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) {
          if (metric.descriptor.name === name)
            points.push(...(metric.dataPoints as DataPoint<number | Histogram>[]));
        }
      }
      return points;
    },
    async close() {
      await telemetry.shutdown();
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** The parent span id of a finished span (SDK 2.x field name). */
export function parentId(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}
