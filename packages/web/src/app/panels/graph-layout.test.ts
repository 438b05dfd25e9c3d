import { describe, expect, it } from 'vitest';

import { layoutAgentTree } from './graph-layout';

describe('agent graph layout', () => {
  it('places sub-agents and tools below their agent, the agent centred over them', () => {
    const { nodes, edges } = layoutAgentTree({
      name: 'router',
      sub_agents: [
        { name: 'weather', tools: [{ name: 'get_weather' }] },
        { name: 'news', tools: [{ name: 'get_news' }, { name: 'search' }] },
      ],
    });
    const byId = new Map(nodes.map((node) => [node.id, node]));
    expect(nodes).toHaveLength(6);
    expect(edges).toContainEqual({ from: 'agent:router', to: 'agent:news', kind: 'sub-agent' });
    expect(edges).toContainEqual({ from: 'agent:news', to: 'tool:news/search', kind: 'tool' });
    const router = byId.get('agent:router')!;
    const weather = byId.get('agent:weather')!;
    const news = byId.get('agent:news')!;
    expect(weather.y).toBeGreaterThan(router.y);
    expect(byId.get('tool:weather/get_weather')!.y).toBeGreaterThan(weather.y);
    expect(router.x).toBe((weather.x + news.x) / 2);
    // No two nodes on the same row overlap.
    for (const a of nodes)
      for (const b of nodes)
        if (a !== b && a.y === b.y) expect(Math.abs(a.x - b.x)).toBeGreaterThanOrEqual(132);
  });
});
