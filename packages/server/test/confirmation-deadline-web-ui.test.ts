/// <reference lib="dom" />

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { ConfirmationPolicy, FunctionTool, InMemorySessionService, LlmAgent } from '@adk/core';
import { FakeModel, fakeFunctionCall } from '@adk/core/testing';

import { createAdkServer, listen, type RunningServer } from '../src';
import { hasChromium, launchChromium } from './chromium';

const executed: number[] = [];
const pay = new FunctionTool({
  name: 'pay',
  description: 'Pay an amount.',
  parameters: z.object({ amount: z.number() }),
  execute: ({ amount }) => {
    executed.push(amount);
    return { paid: amount };
  },
});
const model = new FakeModel({
  responses: (request, index) => {
    if (index === 0) return fakeFunctionCall('pay', { amount: 42 }, 'c1');
    const last = request.contents.at(-1)?.parts[0]?.functionResponse?.response as
      { error?: { code?: string } } | undefined;
    return `Payment outcome: ${last?.error?.code ?? 'paid'}`;
  },
});
/** Three seconds to answer: long enough to see the buttons, short enough for a test. */
const TIMEOUT_MS = 3_000;
const cashier = new LlmAgent({
  name: 'cashier',
  model,
  tools: [pay],
  policies: [new ConfirmationPolicy({ tools: ['pay'], timeoutMs: TIMEOUT_MS })],
});

let server: RunningServer;
let browser: Browser;
let page: Page;
let close: () => Promise<void>;

describe.skipIf(!hasChromium)(
  'the web UI shows a confirmation deadline, then the denial nobody answered (Chromium)',
  () => {
    beforeAll(async () => {
      const sessionService = new InMemorySessionService();
      const app = createAdkServer({
        apps: { shop: { agent: cashier, autoCreateSession: true } },
        sessionService,
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

    it('shows "answer by" on the pending approval, then the expiry and the reply without a click', async () => {
      await page.goto(`${server.url}/#shop`);
      await page.waitForSelector('body[data-ready="true"]');
      await page.fill('#message-input', 'pay 42');
      const sent = Date.now();
      await page.click('#send');

      const approval = page.locator('.bubble.approval');
      const deadline = approval.locator('time.deadline');
      await deadline.waitFor({ timeout: 60_000 });
      const at = Date.parse((await deadline.getAttribute('datetime')) ?? '');
      expect(at).toBeGreaterThanOrEqual(sent + TIMEOUT_MS - 1_000);
      expect(await deadline.textContent()).toContain('Answer by');

      // Nobody clicks. The server denies the call at the deadline; the page shows it by itself.
      await page.locator('.note', { hasText: '⏱ expired' }).waitFor({ timeout: 60_000 });
      await page
        .locator('.bubble.agent', { hasText: 'Payment outcome: CONFIRMATION_EXPIRED' })
        .waitFor({ timeout: 60_000 });
      expect(await approval.locator('button', { hasText: 'Approve' }).count()).toBe(0);
      expect(await approval.locator('.deadline-passed').count()).toBe(1);
      expect(executed).toEqual([]);
    });
  },
);
