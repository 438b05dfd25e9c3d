import { hasSubscribers, publish } from '@adk/core';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';

import { startTelemetry } from './start-telemetry';

afterEach(() => {
  // NodeSDK registers global providers; leave the process as the next test expects it.
  trace.disable();
  metrics.disable();
  context.disable();
  propagation.disable();
});

describe('startTelemetry (NodeSDK)', () => {
  it('starts the SDK, exports ADK spans through it, and shuts it down', async () => {
    const exporter = new InMemorySpanExporter();
    const telemetry = await startTelemetry({
      sdk: {
        spanProcessors: [new SimpleSpanProcessor(exporter)],
        metricReaders: [],
        logRecordProcessors: [],
        resourceDetectors: [],
        serviceName: 'adk-test',
      },
    });
    const ids = { invocationId: 'inv', appName: 'app', userId: 'u', sessionId: 's' };
    publish('runStart', () => ({
      ...ids,
      spanId: 'r',
      parentSpanId: undefined,
      startTime: performance.now(),
      agentName: 'root',
    }));
    publish('agentStart', () => ({
      ...ids,
      spanId: 'a',
      parentSpanId: 'r',
      startTime: performance.now(),
      agentName: 'root',
      agentDescription: undefined,
      branch: undefined,
    }));
    publish('agentEnd', () => ({ spanId: 'a', invocationId: 'inv', durationMs: 1 }));
    publish('runEnd', () => ({ spanId: 'r', invocationId: 'inv', durationMs: 2, eventCount: 0 }));
    // Read before shutdown: shutting the SDK down also shuts (and empties) the exporter.
    const spans = [...exporter.getFinishedSpans()];
    await telemetry.shutdown();
    expect(hasSubscribers('runStart')).toBe(false);

    expect(spans.map((s) => s.name).sort()).toEqual(['invocation', 'invoke_agent root']);
    expect(spans[0]!.resource.attributes['service.name']).toBe('adk-test');
    const run = spans.find((s) => s.name === 'invocation')!;
    expect(spans.find((s) => s.name === 'invoke_agent root')!.parentSpanContext?.spanId).toBe(
      run.spanContext().spanId,
    );
  });
});
