import { InMemorySessionService, Runner, userContent } from '@adk/core';
import { functionNode, START, Workflow, type NodeContext } from '@adk/workflow';
import { SpanStatusCode } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';

import { harness, parentId, type TelemetryHarness } from '../test/harness';

describe('workflow node spans', () => {
  let h: TelemetryHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a span per node execution under the workflow agent, with its route and retry count', async () => {
    h = harness();
    const classify = (_: unknown, ctx: NodeContext) => {
      ctx.route = 'yes';
      return 1;
    };
    let calls = 0;
    const flaky = functionNode({
      name: 'flaky',
      retry: { maxAttempts: 3, initialDelayMs: 1 },
      run: () => {
        if (++calls < 3) throw new Error('again');
        return 'ok';
      },
    });
    const broken = () => {
      throw new Error('broken');
    };
    const workflow = new Workflow({
      name: 'wf',
      edges: [[START, classify, { yes: flaky, no: broken }]],
    });
    const runner = new Runner({
      appName: 'app',
      agent: workflow,
      sessionService: new InMemorySessionService(),
      autoCreateSession: true,
    });
    for await (const _ of runner.run({
      userId: 'u',
      sessionId: 's',
      newMessage: userContent('go'),
    }));
    const agent = h.span('invoke_agent wf');
    const first = h.span('workflow_node classify');
    const second = h.span('workflow_node flaky');
    expect(parentId(first)).toBe(agent.spanContext().spanId);
    expect(parentId(second)).toBe(agent.spanContext().spanId);
    expect(first.attributes).toMatchObject({
      'adk.workflow.name': 'wf',
      'adk.workflow.node.path': 'classify@1',
      'adk.workflow.node.route': ['yes'],
      'adk.workflow.node.retry_count': 0,
    });
    expect(second.attributes).toMatchObject({ 'adk.workflow.node.retry_count': 2 });
    expect(h.spans().some((span) => span.name === 'workflow_node broken')).toBe(false);
  });

  it('a failed node span carries the error status', async () => {
    h = harness();
    const broken = () => {
      throw new Error('broken');
    };
    const runner = new Runner({
      appName: 'app',
      agent: new Workflow({ name: 'wf', edges: [[START, broken]] }),
      sessionService: new InMemorySessionService(),
      autoCreateSession: true,
    });
    for await (const _ of runner.run({
      userId: 'u',
      sessionId: 's',
      newMessage: userContent('go'),
    }));
    const span = h.span('workflow_node broken');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.status.message).toMatch(/broken/);
    expect(span.attributes['adk.workflow.node.outcome']).toBe('failed');
  });
});
