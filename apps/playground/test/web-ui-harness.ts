/// <reference lib="dom" />
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Model } from '@adk/core';
import { listen, type RunningServer } from '@adk/server';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

import { createPlayground, DemoModel, loadConfig, type Playground } from '../src';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env.CI === 'true') {
  throw new Error(
    `Browser tests need Chromium at ${CHROMIUM} (apt-get install -y chromium); CI=true forbids skipping them.`,
  );
}

/** Screenshots for people to look at (git-ignored). */
export const SCREENSHOTS = fileURLToPath(new URL('../test-results/web-ui/', import.meta.url));

/** The playground on the offline demo model, Chromium, and one page: what each test file needs. */
export interface Harness {
  dir: string;
  playground: Playground;
  server: RunningServer;
  browser: BrowserContext;
  page: Page;
  /** Save a screenshot named `name.png` in {@link SCREENSHOTS}. */
  shot(name: string): Promise<void>;
  /** Open the UI at `hash` and wait until it is ready. */
  open(hash?: string): Promise<void>;
  /** Type a message, send it, and wait until the turn ends. */
  say(text: string): Promise<void>;
  close(): Promise<void>;
}

/** `model` replaces the offline demo model (whose words come `wordDelayMs` apart). */
export async function startHarness(wordDelayMs = 5, model?: Model): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'adk-web-ui-'));
  const config = loadConfig({ ADK_SESSION_URL: `sqlite:${join(dir, 'playground.db')}` }, dir);
  const playground = await createPlayground(config, {
    model: model ?? new DemoModel({ wordDelayMs }),
  });
  const server = await listen(playground.app, { port: 0 });
  const browser = await chromium.launchPersistentContext(join(dir, 'chromium-profile'), {
    executablePath: CHROMIUM,
    headless: true,
    acceptDownloads: true,
    viewport: { width: 1400, height: 900 },
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
  const page = browser.pages()[0] ?? (await browser.newPage());
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    dir,
    playground,
    server,
    browser,
    page,
    shot: async (name) => {
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
    },
    open: async (hash = '') => {
      await page.goto(`${server.url}/${hash ? `#${hash}` : ''}`);
      await page.waitForSelector('body[data-ready="true"]');
    },
    say: async (text) => {
      await page.fill('#message-input', text);
      await page.click('#send');
      await page.waitForSelector('#send[disabled]', { timeout: 2000 }).catch(() => undefined);
      await page.waitForSelector('#send:not([disabled])');
    },
    close: async () => {
      await browser.close();
      await server.close();
      await playground.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
