/// <reference lib="dom" />
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { FunctionTool, InMemorySessionService, LlmAgent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { LocalEvalSetResultsStore, LocalEvalSetsStore } from '@adk/eval';

import { createAdkServer, listen, type RunningServer } from '../src';
import { CHROMIUM, hasChromium, launchChromium } from './chromium';
import { adkWebUiDir } from './adk-web-ui';

if (!hasChromium) console.warn(`Skipping the Eval tab test: no Chromium at ${CHROMIUM}.`);

const getWeather = new FunctionTool({
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city }),
});

/** Asked about a city it calls get_weather, then answers `reply(city)`. */
const state = { reply: (city: string) => `It is sunny in ${city}.` };
const agent = new LlmAgent({
  name: 'weather',
  tools: [getWeather],
  model: new FakeModel({
    responses: (request) => {
      const last = request.contents.at(-1);
      const result = last?.parts[0]?.functionResponse;
      if (result) return state.reply(String(result.response.city));
      const city = /weather in (\w+)/i.exec(last?.parts[0]?.text ?? '')?.[1] ?? 'Paris';
      return { functionCalls: [{ name: 'get_weather', args: { city } }] };
    },
  }),
});

let dir: string;
let server: RunningServer;
let browser: Browser;
let page: Page;

describe.skipIf(!hasChromium)('the official ADK web UI Eval tab', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'adk-eval-ui-'));
    const app = createAdkServer({
      apps: { weather: { agent, autoCreateSession: true } },
      sessionService: new InMemorySessionService(),
      webDir: adkWebUiDir(),
      timestampUnit: 'seconds',
      evals: { sets: new LocalEvalSetsStore(dir), results: new LocalEvalSetResultsStore(dir) },
    });
    server = await listen(app, { port: 0 });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('creates a set, adds the current session, runs it and shows the scores', async () => {
    await page.goto(`${server.url}/?app=weather`);
    await page.getByPlaceholder('Type a message...').fill('What is the weather in Paris?');
    await page.keyboard.press('Enter');
    await page.getByText('It is sunny in Paris.').first().waitFor();

    const tab = page.locator('app-eval-tab');
    await page.getByText('Evals', { exact: true }).click();
    await page.getByText('Create Evaluation Set').click();
    await page.locator('mat-dialog-container input').fill('smoke');
    await page.locator('mat-dialog-container button', { hasText: 'Create' }).click();
    await tab.getByText('smoke').first().click();

    await tab.getByText('From Current Session').click();
    await page.locator('mat-dialog-container input').fill('paris');
    await page.locator('mat-dialog-container button', { hasText: 'Create' }).click();
    await tab.getByText('paris').first().waitFor();
    const setFiles = await readdir(join(dir, 'weather'));
    expect(setFiles).toContain('smoke.evalset.json');

    await tab.getByText('Run All').click();
    await page.locator('mat-dialog-container button', { hasText: 'Start' }).click();
    await tab.getByText('1 PASS').waitFor();
    expect(await tab.innerText()).toMatch(/Tool Trajectory\s*:\s*1\.00/);
    expect(await tab.innerText()).toMatch(/paris\s*2\/2/);

    // The agent now answers something else: the next run fails the response match.
    state.reply = () => 'Cloudy skies over the city today.';
    // Back to the list of cases (the side bar's "list" icon), and run again.
    await tab.getByText('list', { exact: true }).click();
    await tab.getByText('Run All').click();
    await page.locator('mat-dialog-container button', { hasText: 'Start' }).click();
    await tab.getByText('1 FAIL').waitFor();
    expect(await tab.innerText()).toMatch(/paris\s*1\/2/);

    const history = await readdir(join(dir, 'weather', '.adk', 'eval_history'));
    expect(history).toHaveLength(2);
  });
});
