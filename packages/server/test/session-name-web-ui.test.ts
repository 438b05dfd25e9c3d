/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { InMemorySessionService, LlmAgent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';

import { createAdkServer, listen, type RunningServer } from '../src';
import { adkWebUiDir } from './adk-web-ui';
import { hasChromium, launchChromium } from './chromium';

const agent = new LlmAgent({
  name: 'weather',
  model: new FakeModel({ responses: () => 'It is sunny.' }),
});

let ours: RunningServer;
let official: RunningServer;
let browser: Browser;
let page: Page;
const sessions = new InMemorySessionService();

async function ourTitles(): Promise<string[]> {
  return page.locator('#session-list .session-title').allTextContents();
}

/** The names the official UI lists for the user's sessions. */
async function officialNames(): Promise<string[]> {
  const other = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  try {
    await other.goto(`${official.url}/?app=weather`);
    // Its session list opens from the session picker of the top bar.
    await other.getByText('NEW SESSION', { exact: true }).click();
    const names = other.locator('.session-item .session-id');
    await names.first().waitFor();
    return (await names.allTextContents()).map((name) => name.trim());
  } finally {
    await other.close();
  }
}

describe.skipIf(!hasChromium)(
  'a session name is one name in this web UI and the official one',
  { timeout: 120_000 },
  () => {
    beforeAll(async () => {
      // Two servers over one session store: this UI on one, the official ADK web UI on the other.
      const app = { weather: { agent, autoCreateSession: true } };
      ours = await listen(createAdkServer({ apps: app, sessionService: sessions, webUi: true }), {
        port: 0,
      });
      official = await listen(
        createAdkServer({
          apps: app,
          sessionService: sessions,
          webDir: adkWebUiDir(),
          timestampUnit: 'seconds',
        }),
        { port: 0 },
      );
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await ours?.close();
      await official?.close();
    });

    it('names a session by its first message where the official UI reads names', async () => {
      await page.goto(`${ours.url}/#weather`);
      await page.waitForSelector('body[data-ready="true"]');
      await page.fill('#message-input', 'Is it sunny in Lisbon this afternoon?');
      await page.click('#send');
      await page.locator('.bubble.agent', { hasText: 'It is sunny.' }).waitFor();
      await page.waitForSelector('#send:not([disabled])');
      const [session] = (await sessions.listSessions({ appName: 'weather', userId: 'user' }))
        .sessions;
      expect(session?.state.__session_metadata__).toEqual({
        displayName: 'Is it sunny in Lisbon this afternoon?',
      });
      await expect.poll(ourTitles).toEqual(['Is it sunny in Lisbon this afternoon?']);
      expect(await officialNames()).toEqual(['Is it sunny in Lisbon this afternoon?']);
    });

    it('a rename in this UI shows in the official one', async () => {
      await page.locator('#session-list li .rename').click();
      await page.fill('#session-list .rename-input', 'Lisbon trip');
      await page.press('#session-list .rename-input', 'Enter');
      await expect.poll(ourTitles).toEqual(['Lisbon trip']);
      expect(await officialNames()).toEqual(['Lisbon trip']);
    });

    it('a rename by the official UI (its PATCH, whole state as the delta) shows in this one', async () => {
      const [session] = (await sessions.listSessions({ appName: 'weather', userId: 'user' }))
        .sessions;
      // What the official session list sends when a name is edited there.
      const state = session!.state;
      const response = await fetch(
        `${official.url}/apps/weather/users/user/sessions/${session!.id}`,
        {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            stateDelta: {
              ...state,
              __session_metadata__: {
                ...(state.__session_metadata__ as object),
                displayName: 'Weekend plans',
              },
            },
          }),
        },
      );
      expect(response.status).toBe(200);
      await page.reload();
      await page.waitForSelector('body[data-ready="true"]');
      await expect.poll(ourTitles).toEqual(['Weekend plans']);
      expect(await officialNames()).toEqual(['Weekend plans']);
    });
  },
);
