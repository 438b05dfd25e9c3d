/// <reference lib="dom" />
import { startFakeGemini, type FakeProviderServer } from '@adk/fake-provider-servers';
import { createGemini } from '@adk/models-gemini';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hasChromium, startHarness, type Harness } from './web-ui-harness';

let t: Harness;
let gemini: FakeProviderServer;

/**
 * A grounded answer (Google Search on the fake Gemini server, with code execution) in the chat:
 * the sources are listed under the answer as links, the code the provider ran is shown, and both
 * come back from the session after a reload.
 */
describe.skipIf(!hasChromium)('grounded answers in Chromium', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    gemini = await startFakeGemini({
      script: () => ({
        text: 'The Burj Khalifa is the tallest building.',
        webSearch: {
          queries: ['tallest building'],
          sources: [
            { url: 'https://example.com/towers', title: 'Towers of the world' },
            { url: 'https://example.org/burj', title: 'Burj Khalifa' },
          ],
        },
        codeExecution: { code: 'print(828 * 2)', output: '1656\n' },
      }),
    });
    const model = createGemini({ apiKey: 'test-key', baseURL: gemini.baseURL })('gemini-2.5-flash');
    t = await startHarness(5, model);
    await t.open('router');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await gemini?.close();
  });

  it('lists the sources under the answer as links, and the code the provider ran', async () => {
    await t.say('Which building is the tallest?');
    const sources = t.page.locator('.messages .sources');
    await sources.waitFor();
    const links = await sources.locator('a').evaluateAll((nodes) =>
      nodes.map((node) => ({
        text: node.textContent,
        href: node.getAttribute('href'),
        target: node.getAttribute('target'),
        rel: node.getAttribute('rel'),
      })),
    );
    expect(links).toEqual([
      {
        text: 'Towers of the world',
        href: 'https://example.com/towers',
        target: '_blank',
        rel: 'noopener noreferrer',
      },
      {
        text: 'Burj Khalifa',
        href: 'https://example.org/burj',
        target: '_blank',
        rel: 'noopener noreferrer',
      },
    ]);
    await expect(sources.textContent()).resolves.toContain('searched: tallest building');
    // The sources come right after the answer they belong to.
    const order = await t.page
      .locator('.messages > *')
      .evaluateAll((nodes) => nodes.map((node) => node.className));
    const answerAt = order.findIndex((name) => name.includes('bubble agent'));
    expect(order.slice(answerAt).some((name) => name.includes('sources'))).toBe(true);
    await expect(
      t.page.locator('.tool[data-kind="code"]', { hasText: 'ran python' }).count(),
    ).resolves.toBe(1);
    await expect(
      t.page.locator('.tool[data-kind="code-result"]', { hasText: 'output (ok)' }).count(),
    ).resolves.toBe(1);
    await t.shot('grounding-sources');

    // Stored with the session: the same after a reload.
    await t.page.reload();
    await t.page.waitForSelector('body[data-ready="true"]');
    await t.page.locator('.messages .sources a', { hasText: 'Burj Khalifa' }).waitFor();
    await expect(t.page.locator('.messages .sources a').count()).resolves.toBe(2);
  });
});
