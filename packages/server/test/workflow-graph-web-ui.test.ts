/// <reference lib="dom" />

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { InMemorySessionService } from '@adk/core';
import { DEFAULT_ROUTE, JoinNode, START, Workflow, type NodeContext } from '@adk/workflow';

import { createAdkServer, listen, type RunningServer } from '../src';
import { hasChromium, launchChromium } from './chromium';

function classify(text: string, ctx: NodeContext) {
  ctx.route = /refund/i.test(text) ? 'refund' : 'other';
  return text;
}
const refund = (text: string) => `refund for "${text}"`;
const faq = (text: string) => `See the FAQ about "${text}".`;
const notify = (text: string) => `notified: ${text}`;
const audit = (text: string) => `audited: ${text}`;
const both = new JoinNode({ name: 'both' });
const support = new Workflow({
  name: 'support',
  edges: [
    [START, classify, { refund, [DEFAULT_ROUTE]: faq }],
    [refund, [notify, audit], both],
  ],
});

let server: RunningServer;
let browser: Browser;
let page: Page;
let close: () => Promise<void>;

describe.skipIf(!hasChromium)('the web UI draws a workflow graph (Chromium)', () => {
  beforeAll(async () => {
    const app = createAdkServer({
      apps: { support: { agent: support, autoCreateSession: true } },
      sessionService: new InMemorySessionService(),
      webUi: true,
    });
    server = await listen(app, { port: 0 });
    close = () => app.close();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await close?.();
  });

  const nodesWith = (selector: string) =>
    page
      .locator(`svg.workflow-graph[data-workflow="support"] ${selector}`)
      .evaluateAll((nodes) =>
        nodes
          .map((node) => node.getAttribute('data-wf-node') ?? node.getAttribute('data-edge'))
          .sort(),
      );

  it('draws the nodes, the edges with their routes, the join distinct; a run highlights its path only', async () => {
    await page.goto(`${server.url}/#support`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.click('[data-tab="graph"]');
    const graph = page.locator('#panel-graph svg.workflow-graph[data-workflow="support"]');
    await graph.waitFor();
    expect(await nodesWith('.wf-node')).toEqual(
      ['__START__', 'audit', 'both', 'classify', 'faq', 'notify', 'refund'].sort(),
    );
    expect(await nodesWith('.wf-edge')).toEqual(
      [
        '__START__>classify',
        'classify>refund',
        'classify>faq',
        'refund>notify',
        'refund>audit',
        'notify>both',
        'audit>both',
      ].sort(),
    );
    // Routes are written on their edges; the join is drawn as a diamond, START as a circle.
    await expect(graph.locator('[data-edge="classify>refund"] .route').textContent()).resolves.toBe(
      'refund',
    );
    // The default route reads "default", never its sentinel `__DEFAULT__`.
    await expect(graph.locator('[data-edge="classify>faq"] .route').textContent()).resolves.toBe(
      'default',
    );
    expect(await graph.textContent()).not.toContain('__DEFAULT__');
    await expect(graph.locator('[data-wf-node="both"].join polygon').count()).resolves.toBe(1);
    await expect(graph.locator('[data-wf-node="__START__"].start circle').count()).resolves.toBe(1);
    expect(await nodesWith('.on-path')).toEqual([]);

    await page.fill('#message-input', 'I want a refund');
    await page.click('#send');
    await page.waitForSelector('#send[disabled]', { timeout: 2000 }).catch(() => undefined);
    await page.waitForSelector('#send:not([disabled])');
    await page.click('[data-tab="graph"]');
    await expect
      .poll(() => nodesWith('.wf-node.on-path'))
      .toEqual(['__START__', 'audit', 'both', 'classify', 'notify', 'refund'].sort());
    expect(await nodesWith('.wf-edge.on-path')).toEqual(
      [
        '__START__>classify',
        'classify>refund',
        'refund>notify',
        'refund>audit',
        'notify>both',
        'audit>both',
      ].sort(),
    );
    // The route not taken stays plain.
    await expect(
      graph.locator('[data-wf-node="faq"]').getAttribute('class'),
    ).resolves.not.toContain('on-path');
    await expect(
      graph.locator('[data-edge="classify>faq"]').getAttribute('class'),
    ).resolves.not.toContain('on-path');
  });
});
