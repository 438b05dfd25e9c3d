/// <reference lib="dom" />
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { InMemorySessionService, LlmAgent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';

import { createAdkServer, listen, type RunningServer } from '../src';
import { hasChromium, launchChromium } from './chromium';

const agent = new LlmAgent({
  name: 'weather',
  model: new FakeModel({ responses: () => 'It is sunny in Lisbon.' }),
});

let server: RunningServer;
let own: RunningServer;
let dir: string;

describe('the web UI at /dev-ui/, where adk web serves it', () => {
  beforeAll(async () => {
    server = await listen(
      createAdkServer({
        apps: { weather: { agent, autoCreateSession: true } },
        sessionService: new InMemorySessionService(),
        webUi: true,
      }),
      { port: 0 },
    );
    dir = mkdtempSync(join(tmpdir(), 'adk-dev-ui-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>mine</title>');
    own = await listen(
      createAdkServer({
        apps: { weather: { agent } },
        sessionService: new InMemorySessionService(),
        webDir: dir,
      }),
      { port: 0 },
    );
  });
  afterAll(async () => {
    await server?.close();
    await own?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves the same page at / and /dev-ui/, its assets too; /dev-ui redirects there', async () => {
    const root = await (await fetch(`${server.url}/`)).text();
    const devUi = await fetch(`${server.url}/dev-ui/`);
    expect(devUi.status).toBe(200);
    expect(await devUi.text()).toBe(root);
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(root)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${server.url}/dev-ui/${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    const redirect = await fetch(`${server.url}/dev-ui?app=weather`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/dev-ui/?app=weather');
    // The API stays where it is.
    await expect((await fetch(`${server.url}/list-apps`)).json()).resolves.toEqual(['weather']);
  });

  it('serves a webDir of your own (such as the official UI) at /dev-ui/ too', async () => {
    const page = await fetch(`${own.url}/dev-ui/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>mine</title>');
  });

  describe.skipIf(!hasChromium)('in Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => browser?.close());

    it("opens the app and session of the official UI's ?app=&session= links", async () => {
      const created = (await (
        await fetch(`${server.url}/apps/weather/users/user/sessions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).json()) as { id: string };
      const run = await fetch(`${server.url}/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          app_name: 'weather',
          user_id: 'user',
          session_id: created.id,
          new_message: { role: 'user', parts: [{ text: 'Weather in Lisbon?' }] },
        }),
      });
      expect(run.status).toBe(200);
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(`${server.url}/dev-ui?app=weather&session=${created.id}`);
      await page.waitForSelector('body[data-ready="true"]');
      expect(new URL(page.url()).pathname).toBe('/dev-ui/');
      await expect(page.inputValue('#app-select')).resolves.toBe('weather');
      await page.locator('.bubble.agent', { hasText: 'It is sunny in Lisbon.' }).waitFor();
      await expect(
        page.locator(`#session-list li.active[data-session-id="${created.id}"]`).count(),
      ).resolves.toBe(1);
      await page.close();
    });
  });
});
