/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { axeViolations } from './axe';
import { hasChromium, startHarness, type Harness } from './web-ui-harness';

let t: Harness;
const sessionId = () => decodeURIComponent(new URL(t.page.url()).hash.split('/')[1] ?? '');
const TABS = ['event', 'state', 'artifacts', 'trace', 'graph', 'eval', 'jobs', 'memory'] as const;

/** The page's background, as its relative luminance (0 black, 1 white). */
const backgroundLuminance = () =>
  t.page.evaluate(() => {
    const [r, g, b] = getComputedStyle(document.documentElement)
      .backgroundColor.match(/\d+(\.\d+)?/g)!
      .slice(0, 3)
      .map((channel) => Number(channel) / 255);
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  });

/** The contrast of each agent graph node's label against the node's fill. */
const nodeLabelContrasts = () =>
  t.page.evaluate(() => {
    const luminance = (color: string) => {
      const [r, g, b] = color
        .match(/\d+(\.\d+)?/g)!
        .slice(0, 3)
        .map((channel) => {
          const c = Number(channel) / 255;
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    return [...document.querySelectorAll('#panel-graph .agent-graph .node')].map((node) => {
      const text = luminance(getComputedStyle(node.querySelector('text')!).fill);
      const fill = luminance(getComputedStyle(node.querySelector('rect, ellipse')!).fill);
      const [light, dark] = text > fill ? [text, fill] : [fill, text];
      return { node: node.getAttribute('data-node'), ratio: (light + 0.05) / (dark + 0.05) };
    });
  });

/** Show a tab and wait until its panel has drawn something. */
async function show(tab: (typeof TABS)[number]): Promise<void> {
  await t.page.click(`[data-tab="${tab}"]`);
  await t.page.locator(`#panel-${tab} > *`).first().waitFor();
  if (tab === 'eval') await t.page.locator('#panel-eval .eval-run').first().waitFor();
  if (tab === 'trace') await t.page.locator('#panel-trace .span-row').first().waitFor();
  if (tab === 'graph') await t.page.locator('#panel-graph svg').first().waitFor();
}

describe.skipIf(!hasChromium)(
  'web UI theme and narrow layout in Chromium',
  { timeout: 180_000 },
  () => {
    beforeAll(async () => {
      t = await startHarness();
      await t.open('router');
      await t.say("What's the weather in Paris?");
      // An eval run, so that the Eval tab shows its history too.
      const base = `${t.server.url}/apps/router/eval_sets/layout`;
      await fetch(base, { method: 'POST' });
      await fetch(`${base}/add_session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ eval_id: 'paris', session_id: sessionId(), user_id: 'user' }),
      });
      await fetch(`${base}/run_eval`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ eval_ids: ['paris'] }),
      });
      await t.page.locator('.bubble.agent.event-block', { hasText: 'From get_weather' }).click();
    }, 120_000);
    afterAll(async () => t?.close());

    it('follows the system colour scheme until the toggle is used, and remembers the toggle', async () => {
      await t.page.emulateMedia({ colorScheme: 'dark' });
      // The page repaints from CSS at once; the toggle's state follows in the page's media-query
      // listener, which a busy machine runs later: wait for it rather than read it once.
      const pressed = () => t.page.getAttribute('#theme-toggle', 'aria-pressed');
      await expect.poll(backgroundLuminance).toBeLessThan(0.1);
      await expect.poll(pressed).toBe('true');
      await t.page.emulateMedia({ colorScheme: 'light' });
      await expect.poll(backgroundLuminance).toBeGreaterThan(0.9);
      await expect.poll(pressed).toBe('false');

      // The toggle wins over the system, across a reload.
      await t.page.click('#theme-toggle');
      await expect.poll(backgroundLuminance).toBeLessThan(0.1);
      await t.page.reload();
      await t.page.waitForSelector('body[data-ready="true"]');
      await expect.poll(backgroundLuminance).toBeLessThan(0.1);
      await expect.poll(pressed).toBe('true');
      await t.page.click('#theme-toggle');
      await t.page.emulateMedia({ colorScheme: 'dark' });
      await expect.poll(backgroundLuminance).toBeGreaterThan(0.9);
      // Forget the choice: the system decides again.
      await t.page.evaluate(() => localStorage.removeItem('adk-web-theme'));
      await t.page.reload();
      await t.page.waitForSelector('body[data-ready="true"]');
      await expect.poll(backgroundLuminance).toBeLessThan(0.1);
    });

    for (const width of [1400, 820]) {
      for (const scheme of ['light', 'dark'] as const) {
        it(`at ${width} px in the ${scheme} theme: every tab and panel fits, and axe finds nothing`, async () => {
          await t.page.setViewportSize({ width, height: 900 });
          await t.page.emulateMedia({ colorScheme: scheme });
          await t.page
            .locator('.bubble.agent.event-block', { hasText: 'From get_weather' })
            .click();
          const found: string[] = [];
          for (const tab of TABS) {
            await show(tab);
            const fit = await t.page.evaluate((name) => {
              const right = (element: Element | null) => element!.getBoundingClientRect().right;
              const panel = document.getElementById(`panel-${name}`)!;
              const tabs = [...document.querySelectorAll('[role="tab"]')];
              return {
                tabsInside: tabs.every(
                  (tab) =>
                    right(tab) <= window.innerWidth &&
                    right(tab) <= right(tab.parentElement) + 0.5 &&
                    tab.getBoundingClientRect().width > 20,
                ),
                panelRight: right(panel),
                panelOverflow: panel.scrollWidth - panel.clientWidth,
                pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
                sendVisible: right(document.getElementById('send')) <= window.innerWidth,
              };
            }, tab);
            expect(fit, `${tab} at ${width} px`).toEqual({
              tabsInside: true,
              panelRight: expect.any(Number),
              panelOverflow: 0,
              pageOverflow: 0,
              sendVisible: true,
            });
            expect(fit.panelRight).toBeLessThanOrEqual(width);
            found.push(...(await axeViolations(t.page)).map((line) => `${tab}: ${line}`));
            // axe does not measure text drawn in SVG: the graph's labels against their node.
            if (tab === 'graph')
              expect((await nodeLabelContrasts()).filter(({ ratio }) => ratio < 4.5)).toEqual([]);
            if (['event', 'trace', 'graph', 'eval', 'jobs'].includes(tab))
              await t.shot(`layout-${width}-${scheme}-${tab}`);
          }
          expect(found).toEqual([]);
        });
      }
    }
  },
);
