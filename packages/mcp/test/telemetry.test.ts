import { LlmAgent, Runner, userContent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { setupTelemetry } from '@adk/telemetry';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';

import { McpToolset } from '../src';
import { everythingServer } from './helpers/servers';

describe('MCP calls in telemetry', () => {
  it('are execute_tool spans carrying the server name and transport', async () => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const telemetry = setupTelemetry({
      tracerProvider,
      meterProvider: false,
      captureContent: false,
    });
    const tools = new McpToolset({
      name: 'everything',
      connection: everythingServer(),
      toolFilter: ['echo'],
    });
    const model = new FakeModel({
      responses: [{ functionCalls: [{ name: 'echo', args: { message: 'traced' } }] }, 'Done.'],
    });
    const runner = new Runner({
      appName: 'traced',
      agent: new LlmAgent({ name: 'tracer', model, tools: [tools] }),
      autoCreateSession: true,
    });
    try {
      for await (const _event of runner.run({
        userId: 'u',
        sessionId: 's',
        newMessage: userContent('Echo it.'),
      }));
    } finally {
      await runner.close();
      await telemetry.shutdown();
    }
    const spans = exporter.getFinishedSpans();
    const tool = spans.find((span) => span.name === 'execute_tool echo');
    expect(tool?.attributes).toMatchObject({
      'gen_ai.tool.name': 'echo',
      'mcp.server.name': 'everything',
      'mcp.transport': 'stdio',
      'mcp.tool.name': 'echo',
    });
    // Under the model call that asked for it, in the run's trace.
    const modelCall = spans.find((span) => span.name.startsWith('call_llm'));
    expect(modelCall).toBeDefined();
    expect(tool?.parentSpanContext?.spanId).toBe(modelCall!.spanContext().spanId);
  });
});
