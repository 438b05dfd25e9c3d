/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hasChromium, startHarness, type Harness } from './web-ui-harness';

let t: Harness;

/** What has the keyboard focus: its id, its tab or event id, and its class. */
const focused = () =>
  t.page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return {
      id: element?.id ?? '',
      tab: element?.dataset.tab ?? '',
      eventId: element?.dataset.eventId ?? '',
      className: element?.className ?? '',
    };
  });

describe.skipIf(!hasChromium)('web UI from the keyboard in Chromium', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    t = await startHarness();
    await t.open('router');
    await t.say("What's the weather in Paris?");
  }, 60_000);
  afterAll(async () => t?.close());

  it('tabs: a tablist of tabs, each controlling its labelled tabpanel, one selected', async () => {
    const tabs = await t.page.locator('[role="tablist"] [role="tab"]').evaluateAll((nodes) =>
      nodes.map((node) => {
        const panel = document.getElementById(node.getAttribute('aria-controls') ?? '');
        return {
          name: node.textContent?.trim(),
          selected: node.getAttribute('aria-selected'),
          tabIndex: (node as HTMLElement).tabIndex,
          panelRole: panel?.getAttribute('role'),
          panelLabelledBy: panel?.getAttribute('aria-labelledby') === node.id,
          panelHidden: panel?.hidden,
        };
      }),
    );
    expect(tabs.map((tab) => tab.name)).toEqual([
      'Event',
      'State',
      'Artifacts',
      'Trace',
      'Graph',
      'Eval',
      'Jobs',
      'Memory',
    ]);
    for (const tab of tabs) {
      expect(tab).toMatchObject({ panelRole: 'tabpanel', panelLabelledBy: true });
      // Only the selected tab is in the Tab order, and only its panel shows.
      const selected = tab.selected === 'true';
      expect(tab.tabIndex).toBe(selected ? 0 : -1);
      expect(tab.panelHidden).toBe(!selected);
    }
    expect(tabs.filter((tab) => tab.selected === 'true')).toHaveLength(1);
  });

  it('tabs: the arrow keys, Home and End move between tabs and show their panel', async () => {
    await t.page.click('[data-tab="state"]');
    await t.page.keyboard.press('ArrowRight');
    await expect.poll(focused).toMatchObject({ tab: 'artifacts' });
    await expect(t.page.isVisible('#panel-artifacts')).resolves.toBe(true);
    await expect(t.page.getAttribute('#tab-artifacts', 'aria-selected')).resolves.toBe('true');
    await t.page.keyboard.press('End');
    await expect.poll(focused).toMatchObject({ tab: 'memory' });
    await expect(t.page.isVisible('#panel-memory')).resolves.toBe(true);
    await t.page.keyboard.press('ArrowRight'); // wraps to the first
    await expect.poll(focused).toMatchObject({ tab: 'event' });
    await t.page.keyboard.press('ArrowLeft'); // and back to the last
    await expect.poll(focused).toMatchObject({ tab: 'memory' });
    await t.page.keyboard.press('Home');
    await expect.poll(focused).toMatchObject({ tab: 'event' });
    await expect(t.page.isVisible('#panel-event')).resolves.toBe(true);
    // Tab leaves the tab list for the panel itself.
    await t.page.keyboard.press('Tab');
    await expect.poll(focused).toMatchObject({ id: 'panel-event' });
  });

  it("the model reply's inspector is reached with Tab and opened with Enter", async () => {
    await t.page.click('[data-tab="state"]');
    // From the user's message, Tab walks the conversation to the model's reply.
    await t.page.locator('.bubble.user.event-block').focus();
    const reply = t.page.locator('.bubble.agent.event-block', { hasText: 'From get_weather' });
    const replyId = await reply.getAttribute('data-event-id');
    for (let step = 0; step < 10 && (await focused()).eventId !== replyId; step++)
      await t.page.keyboard.press('Tab');
    await expect(focused()).resolves.toMatchObject({ eventId: replyId });
    await t.page.keyboard.press('Enter');
    // The inspector shows the model call, and the keyboard is in it.
    await t.page.locator('#panel-event .model-call').waitFor();
    await expect(t.page.locator('#panel-event h2').textContent()).resolves.toBe('Event by weather');
    await expect.poll(focused).toMatchObject({ id: 'panel-event' });
    await t.page.keyboard.press('Tab');
    // The inspector's first section toggles from the keyboard.
    const summary = t.page.locator('#panel-event [data-section="system instruction"] summary');
    await expect.poll(() => summary.evaluate((node) => node === document.activeElement)).toBe(true);
    await t.page.keyboard.press('Enter');
    await expect(
      t.page.locator('#panel-event [data-section="system instruction"]').getAttribute('open'),
    ).resolves.toBeNull();
    await t.shot('keyboard-inspector');
  });

  it('a trace row is reached with Tab and selects its event with Enter', async () => {
    await t.page.click('[data-tab="trace"]');
    const row = t.page.locator('#panel-trace .span-row[data-kind="tool"][data-event-id]').first();
    await row.waitFor();
    const eventId = await row.getAttribute('data-event-id');
    await row.focus();
    await t.page.keyboard.press('Enter');
    await expect
      .poll(() => t.page.locator('#panel-trace .span-row.selected').getAttribute('data-event-id'))
      .toBe(eventId);
    // The redraw keeps the focus on the row.
    await expect.poll(focused).toMatchObject({ eventId });
  });
});
