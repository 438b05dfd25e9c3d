/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { FunctionTool, InMemorySessionService, LlmAgent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { InMemoryVectorStore, SemanticMemoryService } from '@adk/memory';
import { ConceptEmbeddingModel } from '@adk/memory/testing';

import { createAdkServer, listen, type RunningServer } from '../src';
import { hasChromium, launchChromium } from './chromium';

const memory = new SemanticMemoryService({
  store: new InMemoryVectorStore(),
  embedder: new ConceptEmbeddingModel(),
});

/** A tool that stores a fact, so a turn adds a memory the panel must show once the turn ends. */
const remember = new FunctionTool({
  name: 'remember',
  description: 'Remember a fact about the user',
  parameters: z.object({ fact: z.string() }),
  execute: async ({ fact }, context) => {
    await memory.addFacts({ appName: 'pets', userId: context.userId }, [
      { text: fact, sessionId: context.sessionId },
    ]);
    return { ok: true };
  },
});
const agent = new LlmAgent({
  name: 'pets',
  tools: [remember],
  model: new FakeModel({
    responses: (request) =>
      request.contents.at(-1)?.parts[0]?.functionResponse
        ? 'I will remember that.'
        : { functionCalls: [{ name: 'remember', args: { fact: 'Has a cat named Miso' } }] },
  }),
});

let server: RunningServer;
let browser: Browser;
let page: Page;

const listed = async (user = 'user') =>
  (
    (await (await fetch(`${server.url}/apps/pets/users/${user}/memories`)).json()) as {
      memories: { text: string }[];
    }
  ).memories.map((m) => m.text);

describe.skipIf(!hasChromium)(
  'the Memory tab of the web UI (Chromium)',
  { timeout: 60_000 },
  () => {
    beforeAll(async () => {
      const scope = { appName: 'pets', userId: 'user' };
      await memory.addFacts(scope, [
        { text: 'Drinks green tea', timestamp: 1000, sessionId: 'monday' },
      ]);
      await memory.addFacts(scope, [{ text: 'Has a dog named Rex', timestamp: 2000 }]);
      server = await listen(
        createAdkServer({
          apps: { pets: { agent, autoCreateSession: true } },
          sessionService: new InMemorySessionService(),
          memoryService: memory,
          memoryWatchIntervalMs: 100,
          webUi: true,
        }),
        { port: 0 },
      );
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    const shown = () => page.locator('#panel-memory .memory-text').allTextContents();

    it('lists the memories newest first, with their session, and deletes one', async () => {
      await page.goto(`${server.url}/#pets`);
      await page.waitForSelector('body[data-ready="true"]');
      await page.click('#tab-memory');
      await page.locator('#panel-memory .memory').first().waitFor();
      expect(await shown()).toEqual(['Has a dog named Rex', 'Drinks green tea']);
      await expect(
        page
          .locator('#panel-memory .memory', { hasText: 'Drinks green tea' })
          .locator('a')
          .getAttribute('href'),
      ).resolves.toBe('#pets/monday');

      await page.getByRole('button', { name: 'Delete memory: Drinks green tea' }).click();
      await expect.poll(shown).toEqual(['Has a dog named Rex']);
      expect(await listed()).toEqual(['Has a dog named Rex']);
    });

    it('shows a memory a turn added once the turn ends, and deletes all', async () => {
      await page.fill('#message-input', 'I have a cat called Miso.');
      await page.click('#send');
      await page.locator('.bubble.agent', { hasText: 'I will remember that.' }).waitFor();
      await expect.poll(shown).toEqual(['Has a cat named Miso', 'Has a dog named Rex']);

      page.once('dialog', (dialog) => void dialog.accept());
      await page.click('#memory-delete-all');
      await page.locator('#panel-memory .memory-empty', { hasText: 'No memories' }).waitFor();
      expect(await listed()).toEqual([]);
    });

    it('shows what a background extraction stores while the tab is open, with no turn nor reload', async () => {
      await page.locator('#panel-memory .memory-empty', { hasText: 'No memories' }).waitFor();
      // What BackgroundMemoryExtraction does when its job runs: facts straight into the service.
      await memory.addFacts({ appName: 'pets', userId: 'user' }, [
        { text: 'Plays the cello on Sundays', sessionId: 'sunday' },
      ]);
      await expect.poll(shown).toEqual(['Plays the cello on Sundays']);
      // Another tab (or process) forgetting it: the list follows too.
      await fetch(`${server.url}/apps/pets/users/user/memories`, { method: 'DELETE' });
      await page.locator('#panel-memory .memory-empty', { hasText: 'No memories' }).waitFor();
      expect(await page.locator('#errors .error-item').count()).toBe(0);
    });

    it('says so when the app has no memory service', async () => {
      const bare = await listen(
        createAdkServer({
          apps: { pets: { agent, autoCreateSession: true } },
          sessionService: new InMemorySessionService(),
          webUi: true,
        }),
        { port: 0 },
      );
      try {
        await page.goto(`${bare.url}/#pets`);
        await page.waitForSelector('body[data-ready="true"]');
        await page.click('#tab-memory');
        await page
          .locator('#panel-memory .memory-empty', { hasText: 'no memory service' })
          .waitFor();
        expect(await page.locator('#errors .error-item').count()).toBe(0);
      } finally {
        await bare.close();
      }
    });
  },
);
