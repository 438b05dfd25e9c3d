/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { FunctionTool, InMemorySessionService, LlmAgent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';

import { createAdkServer, listen, type RunningServer } from '../src';
import { hasChromium, launchChromium } from './chromium';

const TOOL = 'lookup_customer_order_history';
const lookup = new FunctionTool({
  name: TOOL,
  description: 'Orders of a customer',
  parameters: z.object({ customer: z.string() }),
  execute: ({ customer }) => ({ customer, orders: 3 }),
});
const agent = new LlmAgent({
  name: 'customer_support_specialist',
  tools: [lookup],
  model: new FakeModel({
    responses: (request) =>
      request.contents.at(-1)?.parts[0]?.functionResponse
        ? 'Ada has 3 orders.'
        : { functionCalls: [{ name: TOOL, args: { customer: 'Ada' } }] },
  }),
});

let server: RunningServer;
let browser: Browser;
let page: Page;

describe.skipIf(!hasChromium)(
  'long agent and tool names in the web UI (Chromium)',
  { timeout: 60_000 },
  () => {
    beforeAll(async () => {
      server = await listen(
        createAdkServer({
          apps: { support: { agent, autoCreateSession: true } },
          sessionService: new InMemorySessionService(),
          webUi: true,
        }),
        { port: 0 },
      );
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 820, height: 900 } });
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it('the graph writes the whole names, inside their nodes; the trace does not cut them', async () => {
      await page.goto(`${server.url}/#support`);
      await page.waitForSelector('body[data-ready="true"]');
      await page.fill('#message-input', 'How many orders has Ada?');
      await page.click('#send');
      await page.locator('.bubble.agent', { hasText: 'Ada has 3 orders.' }).waitFor();
      await page.waitForSelector('#send:not([disabled])');

      await page.click('[data-tab="graph"]');
      const nodes = page.locator('#panel-graph svg.agent-graph .node');
      await nodes.first().waitFor();
      const labels = await nodes.evaluateAll((groups) =>
        groups.map((group) => {
          const text = group.querySelector('text')!;
          const box = group.querySelector('rect, ellipse')!.getBoundingClientRect();
          const drawn = text.getBoundingClientRect();
          return {
            text: text.textContent,
            inside: drawn.left >= box.left - 0.5 && drawn.right <= box.right + 0.5,
          };
        }),
      );
      expect(labels).toEqual(
        expect.arrayContaining([
          { text: 'customer_support_specialist', inside: true },
          { text: TOOL, inside: true },
        ]),
      );
      expect(labels).toHaveLength(2);

      await page.click('[data-tab="trace"]');
      const name = page.locator('#panel-trace .span-name', { hasText: `execute_tool ${TOOL}` });
      await name.waitFor();
      await expect(
        name.evaluate((node) => node.scrollWidth <= node.clientWidth && node.textContent),
      ).resolves.toBe(`execute_tool ${TOOL}`);
    });
  },
);
