/// <reference lib="dom" />
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { listen, type RunningServer } from '@adk/server';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createPlayground, DemoModel, loadConfig, type Playground } from '../src';
import { CHROMIUM, hasChromium } from './web-ui-harness';

if (!hasChromium)
  console.warn(`Skipping browser tests: no Chromium at ${CHROMIUM} (apt-get install -y chromium).`);

let dir: string;
let playground: Playground;
let server: RunningServer;
let browser: BrowserContext;
let page: Page;

async function startServer() {
  const config = loadConfig({ ADK_SESSION_URL: `sqlite:${join(dir, 'playground.db')}` }, dir);
  playground = await createPlayground(config, { model: new DemoModel({ wordDelayMs: 15 }) });
  server = await listen(playground.app, { port: 0 });
}

describe.skipIf(!hasChromium)('the web chat page in Chromium', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'adk-browser-'));
    await startServer();
    // A fresh profile folder per run (playwright takes it as userDataDir, i.e. --user-data-dir).
    browser = await chromium.launchPersistentContext(join(dir, 'chromium-profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
      ],
    });
    page = browser.pages()[0] ?? (await browser.newPage());
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await playground?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('streams a reply with its tool call, and shows the history after a reload', async () => {
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    // A slow session creation (a loaded server): the page must count as busy from the click on.
    await page.route('**/apps/router/users/*/sessions', async (route) => {
      if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]');
    await expect(page.locator('#notice').textContent()).resolves.toMatch(/Offline demo model/);

    // Record every text the live (streaming) bubble shows while the reply arrives.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        const live = document.querySelector('.bubble.streaming .text');
        if (live?.textContent && seen.at(-1) !== live.textContent) seen.push(live.textContent);
      }).observe(document.getElementById('messages')!, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    await page.fill('#message-input', "What's the weather in Paris?");
    await page.click('#send');
    // The reply is complete once its bubble stops streaming and the page is idle again.
    const reply = page.locator('.bubble.agent:not(.streaming)', { hasText: 'From get_weather' });
    await reply.waitFor();
    await page.waitForSelector('#send:not([disabled])');
    // Before any assertion: a failure here must not leave the slow route to the next test.
    await page.unroute('**/apps/router/users/*/sessions');

    const answer = (await reply.textContent())!;
    expect(answer).toMatch(/city: Paris/);
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    // Streamed: the bubble showed partial texts before the whole answer. A starved browser may
    // paint several chunks at once, so ask for two distinct partial texts, not one per chunk.
    expect(seen.filter((text) => text.trim() !== answer.trim()).length).toBeGreaterThan(1);
    for (const text of seen) expect(answer).toContain(text.trim());
    await expect(
      page.locator('.tool[data-kind="call"]', { hasText: 'get_weather' }).count(),
    ).resolves.toBe(1);
    await expect(
      page.locator('.tool[data-kind="result"]', { hasText: 'get_weather' }).count(),
    ).resolves.toBe(1);
    await expect(
      page.locator('.note', { hasText: 'transferred to weather' }).count(),
    ).resolves.toBe(1);
    await expect(page.locator('#state-view').textContent()).resolves.toBeTruthy();
    await expect(page.locator('#session-list li').count()).resolves.toBe(1);

    // Reload: the conversation comes back from SQLite.
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await expect(
      page.locator('.bubble.user', { hasText: 'weather in Paris' }).count(),
    ).resolves.toBe(1);
    await expect(
      page.locator('.bubble.agent', { hasText: 'From get_weather' }).count(),
    ).resolves.toBe(1);
    await expect(
      page.locator('.tool[data-kind="call"]', { hasText: 'get_weather' }).count(),
    ).resolves.toBe(1);

    // Everything the page loaded came from the playground itself (works offline).
    expect(requests.every((url) => url.startsWith(server.url))).toBe(true);
  });

  it('lists, resumes and deletes sessions', async () => {
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]');
    await page.click('#new-session');
    await page.fill('#message-input', 'Any news about space?');
    await page.click('#send');
    await page.locator('.bubble.agent:not(.streaming)', { hasText: 'From get_news' }).waitFor();
    await page.waitForSelector('#send:not([disabled])');
    await expect(page.locator('#session-list li').count()).resolves.toBe(2);

    // Resume the first session: its weather conversation comes back.
    await page.locator('#session-list li:not(.active) .open').click();
    await page.locator('.bubble.agent', { hasText: 'From get_weather' }).waitFor();
    await expect(page.locator('.bubble.agent', { hasText: 'From get_news' }).count()).resolves.toBe(
      0,
    );

    // Delete it: the list shrinks, on the page and on the server.
    await page.locator('#session-list li.active .delete').click();
    await page.locator('#session-list li.active .confirm-delete').click();
    await expect.poll(() => page.locator('#session-list li').count()).toBe(1);
    const sessions = (await (
      await fetch(`${server.url}/apps/router/users/user/sessions`)
    ).json()) as unknown[];
    expect(sessions).toHaveLength(1);
  });

  it('shows a saved artifact and runs an approval-gated tool only after Approve', async () => {
    await page.goto(`${server.url}/#reports`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.click('#new-session');
    await page.fill('#message-input', 'Write a report about space');
    await page.click('#send');
    const artifact = page.locator('details.tool', { hasText: 'artifact space.md' });
    await artifact.waitFor();
    await artifact.locator('summary').click();
    await expect(artifact.locator('pre').textContent()).resolves.toMatch(/^# space/);

    await page.waitForSelector('#send:not([disabled])');
    await page.fill('#message-input', 'Publish the report');
    await page.click('#send');
    await page.locator('button', { hasText: 'Approve' }).click();
    await page
      .locator('.bubble.agent', { hasText: 'From publish_report: status: published' })
      .waitFor();
    await page.waitForSelector('#send:not([disabled])');
    // The state view is refreshed from the session after the run ends, not with the last event.
    await expect.poll(() => page.locator('#state-view').textContent()).toContain('space.md');
  });

  it('asks once for the API token of a server that requires one', async () => {
    const config = loadConfig(
      { ADK_SESSION_URL: `sqlite:${join(dir, 'token.db')}`, ADK_API_TOKEN: 'let-me-in' },
      dir,
    );
    const guarded = await createPlayground(config, { model: new DemoModel({ wordDelayMs: 0 }) });
    const guardedServer = await listen(guarded.app, { port: 0 });
    try {
      const asked: string[] = [];
      page.once('dialog', (dialog) => {
        asked.push(dialog.message());
        void dialog.accept('let-me-in');
      });
      await page.goto(guardedServer.url);
      await page.waitForSelector('body[data-ready="true"]');
      expect(asked).toHaveLength(1);
      await page.fill('#message-input', 'Weather in Lima?');
      await page.click('#send');
      await page.locator('.bubble.agent', { hasText: 'city: Lima' }).waitFor();
    } finally {
      await guardedServer.close();
      await guarded.close();
    }
  });
});
