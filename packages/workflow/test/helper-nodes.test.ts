import { describe, expect, it } from 'vitest';

import { FirstMatchNode, node, START, Workflow, type NodeContext } from '../src';
import { delay, outputs, runnerFor, turn, workflowOutput } from './helpers';

describe("Python ADK's helper nodes", () => {
  it('node(fn, options) is a function node named after the function, with its options', async () => {
    let calls = 0;
    async function fetchPrice(item: string) {
      calls++;
      if (calls === 1) throw new Error('flaky');
      return `${item}: 12 EUR`;
    }
    const price = node(fetchPrice, { retry: { maxAttempts: 2, initialDelayMs: 1, jitter: 0 } });
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, price]] })),
      'lamp',
    );
    expect(price.name).toBe('fetchPrice');
    expect(calls).toBe(2);
    expect(workflowOutput(events)).toBe('lamp: 12 EUR');
  });

  it('FirstMatchNode outputs the first matching branch and cancels the others', async () => {
    const seen: string[] = [];
    async function slowWiki(_: string, ctx: NodeContext) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 8000);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          seen.push('wiki cancelled');
          resolve();
        });
      });
      return { found: true, from: 'wiki' };
    }
    async function brokenCrm(): Promise<never> {
      await delay(5);
      throw new Error('crm down');
    }
    const emptyDocs = () => ({ found: false, from: 'docs' });
    async function drive(question: string) {
      await delay(40);
      return { found: true, from: 'drive', question };
    }
    const first = new FirstMatchNode({
      name: 'first_source',
      nodes: [slowWiki, brokenCrm, emptyDocs, drive],
      match: (result) => (result as { found?: boolean }).found === true,
    });
    const started = performance.now();
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, first]] })),
      'where?',
    );
    expect(performance.now() - started).toBeLessThan(6000);
    expect(workflowOutput(events)).toEqual({ found: true, from: 'drive', question: 'where?' });
    await delay(20);
    expect(seen).toEqual(['wiki cancelled']);
    expect(outputs(events).some((record) => record.node === 'slowWiki')).toBe(false);
    expect(events.some((event) => event.errorCode !== undefined)).toBe(false);
  });
});
