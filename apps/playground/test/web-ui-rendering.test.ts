/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hasChromium, startHarness, type Harness } from './web-ui-harness';

let t: Harness;

describe.skipIf(!hasChromium)('web UI rendering details in Chromium', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    t = await startHarness();
    await t.page.setViewportSize({ width: 820, height: 900 });
    await t.open('router');
    await t.say("What's the weather in Paris?");
  }, 60_000);
  afterAll(async () => t?.close());

  it('the inspector shows the token counts once, its fields aligned', async () => {
    await t.page.locator('.bubble.agent.event-block', { hasText: 'From get_weather' }).click();
    const panel = t.page.locator('#panel-event');
    await panel.locator('.model-call').waitFor();
    const text = (await panel.textContent())!.replace(/\{[\s\S]*$/, ''); // before the JSON
    expect(text.match(/tokens/gi)).toHaveLength(1);
    expect(text).toMatch(/Tokens\d+ in \/ \d+ out/);
    // The event's fields and the model call's share one column of values.
    const lefts = await panel
      .locator('.fields .value')
      .evaluateAll((nodes) => new Set(nodes.map((node) => node.getBoundingClientRect().left)).size);
    expect(lefts).toBe(1);
  });

  it('trace: durations in one right-aligned column, span names whole', async () => {
    await t.page.click('[data-tab="trace"]');
    await t.page.locator('#panel-trace .span-row').first().waitFor();
    const layout = await t.page.evaluate(() => {
      const rights = [
        ...document.querySelectorAll('#panel-trace .span-ms, #panel-trace .invocation-ms'),
      ].map((node) => Math.round(node.getBoundingClientRect().right));
      const names = [...document.querySelectorAll<HTMLElement>('#panel-trace .span-name')].map(
        (node) => ({
          text: node.textContent,
          cut: node.scrollWidth > node.clientWidth || node.scrollHeight > node.clientHeight + 1,
        }),
      );
      return { rights: [...new Set(rights)], names };
    });
    expect(layout.rights).toHaveLength(1);
    expect(layout.names).toContainEqual({ text: 'execute_tool get_weather', cut: false });
    expect(layout.names.filter((name) => name.cut)).toEqual([]);
    // In the chat, a long tool result wraps inside its block.
    const overflow = await t.page
      .locator('.messages .tool summary')
      .evaluateAll((nodes) => nodes.map((node) => node.scrollWidth - node.clientWidth));
    expect(overflow.every((pixels) => pixels <= 0)).toBe(true);
    await t.shot('rendering-trace-820');
  });

  it('the State panel is current as soon as a turn ends, before the session reloads', async () => {
    await t.open('reports');
    await t.page.click('#new-session');
    await t.page.click('[data-tab="state"]');
    await t.say('Write a report about space');
    await t.say('publish space.md');
    // The session's reload after the turn is slow: what the panel shows comes from the turn.
    await t.page.route('**/apps/reports/users/user/sessions/*', async (route) => {
      if (route.request().method() === 'GET') await new Promise((done) => setTimeout(done, 1500));
      await route.fallback();
    });
    await t.page.locator('.confirm button', { hasText: 'Approve' }).click();
    await t.page.waitForSelector('#send[disabled]', { timeout: 2000 }).catch(() => undefined);
    await t.page.waitForSelector('#send:not([disabled])');
    await expect(t.page.locator('#state-view').textContent()).resolves.toContain(
      '"published_reports"',
    );
    await t.page.unroute('**/apps/reports/users/user/sessions/*');
  });
});
