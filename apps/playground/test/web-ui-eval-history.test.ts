/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { axeViolations } from './axe';
import { hasChromium, startHarness, type Harness } from './web-ui-harness';

let t: Harness;
const sessionId = () => decodeURIComponent(new URL(t.page.url()).hash.split('/')[1] ?? '');

interface StoredCase {
  conversation: { finalResponse: { parts: { text?: string }[] } }[];
}

describe.skipIf(!hasChromium)('web UI eval run history in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    t = await startHarness();
  }, 60_000);
  afterAll(async () => t?.close());

  it('lists the runs of a set, newest first, with per-metric scores and expected vs actual per turn', async () => {
    await t.open('router');
    await t.say("What's the weather in Paris?");
    const base = `${t.server.url}/apps/router/eval_sets/history`;
    await fetch(base, { method: 'POST' });
    await fetch(`${base}/add_session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ eval_id: 'paris', session_id: sessionId(), user_id: 'user' }),
    });
    await t.page.click('[data-tab="state"]');
    await t.page.click('[data-tab="eval"]');
    await t.page.selectOption('#panel-eval select.eval-set', 'history');
    const panel = t.page.locator('#panel-eval');
    // The history loads after the set is chosen: wait for it.
    await expect
      .poll(() => panel.locator('.eval-history').textContent())
      .toContain('No runs of this set yet.');
    await panel.locator('.run-eval').click();
    await expect.poll(() => panel.locator('.eval-run').count()).toBe(1);

    // The expected answer changes: the next run fails the response match.
    const stored = (await (await fetch(`${base}/evals/paris`)).json()) as StoredCase;
    stored.conversation[0]!.finalResponse.parts = [{ text: 'It is raining in Paris today.' }];
    const put = await fetch(`${base}/evals/paris`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(stored),
    });
    expect(put.status).toBe(200);
    await panel.locator('.run-eval').click();
    await expect.poll(() => panel.locator('.eval-run').count()).toBe(2);

    const runs = panel.locator('.eval-run');
    // Newest first and open; its only case open too.
    await expect(runs.nth(0).locator('summary').first().textContent()).resolves.toMatch(
      /^#2 · .+ · 0 passed, 1 failed$/,
    );
    await expect(runs.nth(1).locator('summary').first().textContent()).resolves.toMatch(
      /^#1 · .+ · 1 passed, 0 failed$/,
    );
    await expect(runs.nth(0).getAttribute('open')).resolves.not.toBeNull();
    await expect(runs.nth(1).getAttribute('open')).resolves.toBeNull();
    const failed = runs.nth(0).locator('.eval-case-result[data-case="paris"]');
    await expect(failed.getAttribute('data-status')).resolves.toBe('FAILED');
    await expect(failed.getAttribute('open')).resolves.not.toBeNull();

    // The case's scores per metric, then each turn's.
    const overall = await failed.locator(':scope > .metric-scores li').allTextContents();
    expect(overall).toEqual([
      'tool_trajectory_avg_score: 1.00 / 1 (PASSED)',
      expect.stringMatching(/^response_match_score: 0\.\d\d \/ 0\.8 \(FAILED\)$/),
    ]);
    const turn = failed.locator('.eval-invocation[data-invocation="1"]');
    await expect(turn.locator('h4').textContent()).resolves.toBe(
      "Turn 1: What's the weather in Paris?",
    );
    await expect(
      turn.locator('.metric-score.failed[data-metric="response_match_score"]').count(),
    ).resolves.toBe(1);
    await expect(turn.locator('.eval-side.expected .eval-response').textContent()).resolves.toBe(
      'It is raining in Paris today.',
    );
    await expect(turn.locator('.eval-side.actual .eval-response').textContent()).resolves.toMatch(
      /^From get_weather: city: Paris/,
    );
    for (const side of ['expected', 'actual'])
      await expect(
        turn.locator(`.eval-side.${side} .eval-tools li`).allTextContents(),
      ).resolves.toContain('get_weather({"city":"Paris"})');

    // The older run opens on demand, with its passing scores.
    await runs.nth(1).locator('summary').first().click();
    await expect(
      runs.nth(1).locator('.eval-case-result[data-case="paris"]').getAttribute('data-status'),
    ).resolves.toBe('PASSED');
    await t.shot('eval-history');
    expect(await axeViolations(t.page)).toEqual([]);
    await t.page.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(t.page)).toEqual([]);
    await t.shot('eval-history-dark');
  });
});
