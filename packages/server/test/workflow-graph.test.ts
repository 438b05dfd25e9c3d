import { InMemorySessionService, type Event } from '@adk/core';
import { JoinNode, START, Workflow, type NodeContext } from '@adk/workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAdkServer, listen, type RunningServer } from '../src';

const classify = (text: string, ctx: NodeContext) => {
  ctx.route = text.includes('refund') ? 'billing' : 'other';
  return text;
};
const billing = (text: string) => `billing: ${text}`;
const other = (text: string) => `other: ${text}`;
const audit = (text: string) => `audit: ${text}`;
const both = new JoinNode({ name: 'both' });
const workflow = new Workflow({
  name: 'support',
  edges: [
    [START, classify, { billing, other }],
    [billing, [audit, both]],
    [audit, both],
  ],
});

let server: RunningServer;
beforeAll(async () => {
  const app = createAdkServer({
    apps: { support: { agent: workflow, autoCreateSession: true } },
    sessionService: new InMemorySessionService(),
  });
  server = await listen(app, { port: 0 });
});
afterAll(() => server.close());

describe('graph routes draw workflows', () => {
  it('draws the nodes and routed edges, and highlights the path a run took', async () => {
    const plain = (await (await fetch(`${server.url}/dev/support/graph`)).json()) as {
      dotSrc: string;
    };
    expect(plain.dotSrc).toContain('"support.START" -> "classify" [arrowhead=normal]');
    expect(plain.dotSrc).toContain('"classify" -> "billing" [arrowhead=normal label="billing"]');
    expect(plain.dotSrc).toContain('"both" [shape=diamond');
    const tree = (await (await fetch(`${server.url}/dev/build_graph/support`)).json()) as {
      root_agent: { graph?: { edges: Array<{ from: string; to: string; routes?: string[] }> } };
    };
    expect(tree.root_agent.graph?.edges).toContainEqual({
      from: 'classify',
      to: 'billing',
      routes: ['billing'],
    });

    const events = (await (
      await fetch(`${server.url}/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          app_name: 'support',
          user_id: 'u1',
          session_id: 's1',
          new_message: { role: 'user', parts: [{ text: 'refund please' }] },
        }),
      })
    ).json()) as Event[];
    const last = events.at(-1) as Event;
    const graph = (await (
      await fetch(`${server.url}/apps/support/users/u1/sessions/s1/events/${last.id}/graph`)
    ).json()) as { dotSrc: string };
    for (const [from, to] of [
      ['support.START', 'classify'],
      ['classify', 'billing'],
      ['billing', 'audit'],
      ['audit', 'both'],
    ]) {
      expect(graph.dotSrc).toMatch(
        new RegExp(`"${from}" -> "${to}" \\[arrowhead=normal[^\\]]*penwidth=2`),
      );
    }
    expect(graph.dotSrc).toMatch(/"classify" -> "other" \[arrowhead=normal label="other"\];/);
  });
});
