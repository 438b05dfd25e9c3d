/// <reference lib="dom" />
import { readFileSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hasChromium, startHarness, type Harness } from './web-ui-harness';

let t: Harness;
const sessionId = () => decodeURIComponent(new URL(t.page.url()).hash.split('/')[1] ?? '');
const titles = () => t.page.locator('#session-list .session-title').allTextContents();

describe.skipIf(!hasChromium)('web UI sessions, errors and evals in Chromium', () => {
  beforeAll(async () => {
    t = await startHarness();
  });
  afterAll(async () => t?.close());

  it('names sessions by their first message, dates them, searches, renames', async () => {
    await t.open('router');
    await t.say("What's the weather in Oslo?");
    await t.page.click('#new-session');
    await t.say('Any news about space?');
    expect(await titles()).toEqual(['Any news about space?', "What's the weather in Oslo?"]);
    // Dated today (seconds on the wire by default, read right: not the year 58871).
    const title = await t.page.locator('#session-list li .open').first().getAttribute('title');
    expect(title).toContain(String(new Date().getFullYear()));
    await expect(t.page.locator('#session-list time').first().textContent()).resolves.toMatch(
      /\d{1,2}:\d{2}/,
    );

    await t.page.fill('#session-search', 'oslo');
    await expect.poll(titles).toEqual(["What's the weather in Oslo?"]);
    await t.page.fill('#session-search', 'from get_weather'); // text of a reply matches too
    await expect.poll(titles).toEqual(["What's the weather in Oslo?"]);
    await t.page.fill('#session-search', 'zzz');
    await expect(t.page.locator('#session-list li.empty').textContent()).resolves.toBe(
      'No session matches.',
    );
    await t.page.fill('#session-search', '');

    await t.page.locator('#session-list li', { hasText: 'Oslo' }).locator('.rename').click();
    await t.page.fill('#session-list .rename-input', 'Oslo trip');
    await t.page.press('#session-list .rename-input', 'Enter');
    await expect.poll(titles).toContain('Oslo trip');
    await t.page.reload();
    await t.page.waitForSelector('body[data-ready="true"]');
    await expect.poll(titles).toContain('Oslo trip');
    await t.shot('sessions');
  });

  it('deletes a session only after confirmation', async () => {
    const item = t.page.locator('#session-list li', { hasText: 'Any news' });
    await item.locator('.delete').click();
    await expect(item.locator('.ask').textContent()).resolves.toContain(
      'Delete “Any news about space?”?',
    );
    await item.locator('.cancel').click();
    expect(await titles()).toHaveLength(2);
    await item.locator('.delete').click();
    await item.locator('.confirm-delete').click();
    await expect.poll(titles).toEqual(['Oslo trip']);
    const listed = (await (
      await fetch(`${t.server.url}/apps/router/users/user/sessions`)
    ).json()) as unknown[];
    expect(listed).toHaveLength(1);
  });

  it('exports a session as JSON and imports it back as a new session', async () => {
    const item = t.page.locator('#session-list li', { hasText: 'Oslo trip' });
    const [download] = await Promise.all([
      t.page.waitForEvent('download'),
      item.locator('.export').click(),
    ]);
    const path = (await download.path())!;
    const exported = JSON.parse(readFileSync(path, 'utf8')) as {
      format: string;
      session: { id: string; events: unknown[] };
    };
    expect(exported.format).toBe('adk-session');
    expect(exported.session.events.length).toBeGreaterThan(3);
    await t.page.setInputFiles('#import-file', path);
    await expect.poll(async () => (await titles()).length).toBe(2);
    expect(sessionId()).not.toBe(exported.session.id);
    // The import carries the events (and so the name given by Rename, a state delta).
    await expect.poll(titles).toEqual(['Oslo trip', 'Oslo trip']);
    await expect(
      t.page.locator('.bubble.user', { hasText: 'weather in Oslo' }).count(),
    ).resolves.toBe(1);
    await expect(t.page.locator('.bubble.agent', { hasText: 'city: Oslo' }).count()).resolves.toBe(
      1,
    );
  });

  it('shows errors readably: the server’s typed message, and a named server instead of "Failed to fetch"', async () => {
    // The session disappears behind the page's back: the run gets SESSION_NOT_FOUND.
    await fetch(`${t.server.url}/apps/router/users/user/sessions/${sessionId()}`, {
      method: 'DELETE',
    });
    await t.say('Weather in Rome?');
    const error = t.page.locator('#errors .error-item').last();
    await expect(error.textContent()).resolves.toMatch(
      /Running the agent: SESSION_NOT_FOUND: Session not found: .* \(404, POST \/run_sse\)/,
    );
    await expect(error.isVisible()).resolves.toBe(true);
    await error.locator('.dismiss').click();
    // The server cannot be reached.
    await t.page.route('**/apps/router/users/user/sessions', (route) =>
      route.abort('connectionrefused'),
    );
    await t.page.click('#new-session');
    const offline = (await t.page.locator('#errors .error-item').last().textContent())!;
    expect(offline).toContain(`Cannot reach the ADK server at ${t.server.url}`);
    expect(offline).not.toContain('Failed to fetch');
    await t.page.unroute('**/apps/router/users/user/sessions');
    // A run that fails mid-stream: the error frame's code and message, in the conversation.
    const frame = {
      id: 'e1',
      invocationId: 'i1',
      author: 'router',
      timestamp: Date.now() / 1000,
      error: 'Rate limited',
      errorCode: 'RATE_LIMITED',
      errorMessage: 'The model answered 429: retry in 20 s',
    };
    await t.page.route('**/run_sse', (route) =>
      route.fulfill({
        contentType: 'text/event-stream',
        body: `data: ${JSON.stringify(frame)}\n\n`,
      }),
    );
    await t.page.click('#new-session');
    await t.say('Weather in Lima?');
    const failed = t.page.locator('#messages .bubble.error').last();
    await expect(failed.textContent()).resolves.toBe(
      'RATE_LIMITED The model answered 429: retry in 20 s',
    );
    await expect(failed.isVisible()).resolves.toBe(true);
    await t.shot('errors');
    await t.page.unroute('**/run_sse');
  });

  it('eval panel: lists sets, adds the session as a case and runs it with the official routes', async () => {
    // The eval routes as the official server answers them (another package implements them).
    const calls: { url: string; body: unknown }[] = [];
    await t.page.route('**/apps/router/eval_sets**', async (route) => {
      const request = route.request();
      const url = new URL(request.url()).pathname;
      calls.push({ url: `${request.method()} ${url}`, body: request.postDataJSON() as unknown });
      if (url.endsWith('/eval_sets')) return route.fulfill({ json: ['smoke'] });
      if (url.endsWith('/evals'))
        return route.fulfill({
          json: calls.some((c) => c.url.endsWith('add_session')) ? ['case_1'] : [],
        });
      if (url.endsWith('/add_session')) return route.fulfill({ json: {} });
      if (url.endsWith('/run_eval'))
        return route.fulfill({
          json: [
            {
              evalSetId: 'smoke',
              evalId: 'case_1',
              finalEvalStatus: 1,
              overallEvalMetricResults: [
                {
                  metricName: 'tool_trajectory_avg_score',
                  threshold: 1,
                  score: 1,
                  evalStatus: 1,
                },
                { metricName: 'response_match_score', threshold: 0.8, score: 0.5, evalStatus: 2 },
              ],
            },
          ],
        });
      return route.fulfill({ status: 404, json: { detail: 'no' } });
    });
    await t.open('router');
    await t.page.click('#new-session');
    await t.say('Weather in Lima?');
    await t.page.click('[data-tab="eval"]');
    await expect(t.page.locator('#panel-eval select.eval-set').inputValue()).resolves.toBe('smoke');
    await t.page.click('#panel-eval .add-session');
    await t.page.locator('#panel-eval .eval-cases li', { hasText: 'case_1' }).waitFor();
    expect(calls.find((c) => c.url.endsWith('/add_session'))?.body).toEqual({
      eval_id: 'case_1',
      session_id: sessionId(),
      user_id: 'user',
    });
    await t.page.click('#panel-eval .run-eval');
    const row = t.page.locator('#panel-eval .eval-results tbody tr');
    await expect(row.getAttribute('data-status')).resolves.toBe('PASSED');
    await expect(row.textContent()).resolves.toContain('response_match_score: 0.50 / 0.8 (FAILED)');
    expect(calls.find((c) => c.url.endsWith('/run_eval'))?.body).toEqual({
      eval_ids: ['case_1'],
      eval_metrics: [
        { metric_name: 'tool_trajectory_avg_score', threshold: 1 },
        { metric_name: 'response_match_score', threshold: 0.8 },
      ],
    });
    await t.shot('eval-panel');
    await t.page.unroute('**/apps/router/eval_sets**');
  });

  it('eval panel against the server’s own eval routes: a set, the session as a case, a run with scores', async () => {
    const created = await fetch(`${t.server.url}/apps/router/eval_sets/real_routes`, {
      method: 'POST',
    });
    expect(created.ok).toBe(true);
    await t.open('router');
    await t.page.click('#new-session');
    await t.say('Weather in Lima?');
    await t.page.click('[data-tab="eval"]');
    await t.page.selectOption('#panel-eval select.eval-set', 'real_routes');
    await t.page.click('#panel-eval .add-session');
    await t.page.locator('#panel-eval .eval-cases li', { hasText: 'case_1' }).waitFor();
    const stored = (await (
      await fetch(`${t.server.url}/apps/router/eval_sets/real_routes/evals`)
    ).json()) as string[];
    expect(stored).toEqual(['case_1']);
    await t.page.click('#panel-eval .run-eval');
    const row = t.page.locator('#panel-eval .eval-results tbody tr');
    await row.waitFor({ timeout: 30_000 });
    // The same demo model answers the same question: the recorded case passes against itself.
    await expect(row.getAttribute('data-status')).resolves.toBe('PASSED');
    await expect(row.textContent()).resolves.toMatch(/tool_trajectory_avg_score: 1\.00 \/ 1/);
    await t.shot('eval-panel-real-routes');
  });
});
