/// <reference lib="dom" />
import { getText } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hasChromium, startHarness, type Harness } from './web-ui-harness';

let t: Harness;
/** Answers each message with its own text, so every run's answer is known. */
const model = new FakeModel({
  responses: (request) => {
    const last = request.contents.at(-1);
    return `Background answer to: ${getText(last)}`;
  },
});
const job = (text: string) => t.page.locator('#job-list li.job', { hasText: text });

interface WireJob {
  id: string;
  state: string;
  sessionId?: string;
  message: { parts: { text?: string }[] };
}
const jobsOnServer = async () =>
  (await (await fetch(`${t.server.url}/apps/router/users/user/jobs`)).json()) as WireJob[];

describe.skipIf(!hasChromium)('web UI background runs in Chromium', () => {
  beforeAll(async () => {
    t = await startHarness(5, model);
  });
  afterAll(async () => t?.close());

  it('enqueues a run, sees it complete live, and opens the session it wrote', async () => {
    await t.open('router');
    await t.page.click('.tabs [data-tab="jobs"]');
    await t.page.waitForSelector('#job-status[data-kind="live"]');
    // No session is open: the run gets its own session.
    expect(await t.page.isDisabled('#job-in-session')).toBe(true);
    await t.page.fill('#job-message', 'Summarize the quarter');
    await t.page.click('#job-submit');
    const item = job('Summarize the quarter');
    await expect.poll(() => item.getAttribute('data-state'), { timeout: 30_000 }).toBe('completed');
    expect(await item.locator('.job-state').textContent()).toBe('completed');
    expect(await item.locator('.job-attempts').textContent()).toBe('attempt 1/5');
    expect(await item.locator('.job-answer').textContent()).toBe(
      'Background answer to: Summarize the quarter',
    );
    expect(await item.locator('.job-meta').textContent()).toMatch(/queued .*started .*finished/);
    expect(await item.locator('.job-cancel').count()).toBe(0);
    await t.shot('jobs-completed');

    const [stored] = await jobsOnServer();
    await item.locator('.job-session').click();
    await expect
      .poll(() => decodeURIComponent(new URL(t.page.url()).hash))
      .toBe(`#router/job-${stored!.id}`);
    const messages = t.page.locator('#messages');
    await expect.poll(() => messages.textContent()).toContain('Summarize the quarter');
    await expect
      .poll(() => messages.textContent())
      .toContain('Background answer to: Summarize the quarter');
    // The session the run wrote is listed with the others.
    await expect
      .poll(() => t.page.locator('#session-list .session-title').allTextContents())
      .toContain('Summarize the quarter');
  });

  it('runs in the open session, whose chat shows the answer when the run ends', async () => {
    await t.page.click('#new-session');
    await t.say('Hello first');
    await t.page.click('.tabs [data-tab="jobs"]');
    expect(await t.page.isChecked('#job-in-session')).toBe(true);
    await t.page.fill('#job-message', 'Follow up later');
    await t.page.click('#job-submit');
    await expect
      .poll(() => job('Follow up later').getAttribute('data-state'), { timeout: 30_000 })
      .toBe('completed');
    // No click: the open conversation reloads with the run's answer.
    await expect
      .poll(() => t.page.locator('#messages').textContent())
      .toContain('Background answer to: Follow up later');
    // It ran in the open session, not in one of its own.
    const sessionId = decodeURIComponent(new URL(t.page.url()).hash.split('/')[1] ?? '');
    const stored = (await jobsOnServer()).find(
      (entry) => entry.message.parts[0]?.text === 'Follow up later',
    );
    expect(sessionId).not.toBe('');
    expect(stored?.sessionId).toBe(sessionId);
  });

  it('cancels a delayed job from the list', async () => {
    await t.page.fill('#job-message', 'Run me in a minute');
    await t.page.fill('#job-delay', '60');
    await t.page.fill('#job-priority', '2');
    await t.page.click('#job-submit');
    const item = job('Run me in a minute');
    await expect.poll(() => item.getAttribute('data-state')).toBe('pending');
    expect(await item.locator('.job-state').textContent()).toBe('queued');
    expect(await item.locator('.job-meta').textContent()).toMatch(/priority 2.*starts /);
    await item.locator('.job-cancel').click();
    await expect.poll(() => item.getAttribute('data-state')).toBe('cancelled');
    expect(await item.locator('.job-cancel').count()).toBe(0);
    const onServer = (await jobsOnServer()).find((entry) => entry.state === 'cancelled');
    expect(onServer).toBeDefined();
    await t.shot('jobs-cancelled');
  });

  it('shows a change made outside the page without a reload', async () => {
    const response = await fetch(`${t.server.url}/apps/router/users/user/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ new_message: { parts: [{ text: 'From curl' }] }, run_in_ms: 60_000 }),
    });
    const created = (await response.json()) as WireJob;
    await expect.poll(() => job('From curl').getAttribute('data-state')).toBe('pending');
    await fetch(`${t.server.url}/apps/router/users/user/jobs/${created.id}`, { method: 'DELETE' });
    await expect.poll(() => job('From curl').getAttribute('data-state')).toBe('cancelled');
  });
});
