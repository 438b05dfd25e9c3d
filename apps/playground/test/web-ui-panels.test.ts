/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hasChromium, startHarness, type Harness } from './web-ui-harness';

let t: Harness;
const sessionId = () => decodeURIComponent(new URL(t.page.url()).hash.split('/')[1] ?? '');

// A 1x1 red PNG.
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

describe.skipIf(!hasChromium)('web UI panels in Chromium', () => {
  beforeAll(async () => {
    t = await startHarness();
  });
  afterAll(async () => t?.close());

  it('event inspector: the event whole, and the exact model request, response, tokens and latency', async () => {
    await t.open('router');
    await t.say("What's the weather in Paris?");
    // The weather agent's final text: a model event.
    await t.page.locator('.bubble.agent.event-block', { hasText: 'From get_weather' }).click();
    const panel = t.page.locator('#panel-event');
    await panel.locator('.model-call').waitFor();
    await expect(panel.locator('h2').textContent()).resolves.toBe('Event by weather');
    const fields = (await panel.locator('.model-call').textContent())!;
    expect(fields).toContain('Modeloffline-demo');
    // Milliseconds, or seconds on a busy machine.
    expect(fields).toMatch(/Latency\d+(\.\d+)? m?s/);
    expect(fields).toMatch(/Tokens\d+ in \/ \d+ out/);
    const section = (name: string) => panel.locator(`[data-section^="${name}"] pre`).textContent();
    await expect(section('system instruction')).resolves.toMatch(/get_weather/);
    // The final answer's request: the trace keeps what is new since the last model turn (the
    // tool's call and response), and the panel says the earlier contents (the question) are left out.
    await expect(section('contents')).resolves.toContain('get_weather');
    await expect(
      panel.locator('[data-section^="contents"] .contents-omitted').textContent(),
    ).resolves.toMatch(/^The \d+ earlier contents? of this request/);
    await expect(section('tools')).resolves.toContain('"name": "get_weather"');
    await expect(section('response')).resolves.toContain('From get_weather');
    const eventJson = JSON.parse((await panel.locator('.event-json').textContent())!) as {
      id: string;
      author: string;
    };
    expect(eventJson.author).toBe('weather');
    await expect(
      t.page.locator(`.event-block.selected[data-event-id="${eventJson.id}"]`).count(),
    ).resolves.toBeGreaterThan(0);
    // A tool result event shows the tool call: arguments, result, latency.
    await t.page.locator('.tool[data-kind="result"] summary', { hasText: 'get_weather' }).click();
    await panel.locator('.tool-call').waitFor();
    await expect(section('arguments')).resolves.toContain('"city": "Paris"');
    await t.shot('event-inspector');
  });

  it('trace: a waterfall of agent, model and tool spans with durations; a row selects its event', async () => {
    await t.page.click('[data-tab="trace"]');
    const rows = t.page.locator('#panel-trace .span-row');
    await rows.first().waitFor();
    const kinds = await rows.evaluateAll((nodes) =>
      nodes.map((node) => node.getAttribute('data-kind')),
    );
    expect(kinds).toEqual(expect.arrayContaining(['run', 'agent', 'model', 'tool']));
    for (const text of await t.page.locator('#panel-trace .span-ms').allTextContents())
      expect(text).toMatch(/^\d+(\.\d+)? m?s$/);
    // Nested spans are indented under their parent.
    const pads = await t.page
      .locator('#panel-trace .span-name')
      .evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).style.paddingLeft));
    expect(new Set(pads).size).toBeGreaterThan(2);
    const modelRow = t.page
      .locator('#panel-trace .span-row[data-kind="model"][data-event-id]')
      .last();
    const eventId = await modelRow.getAttribute('data-event-id');
    await modelRow.click();
    await expect
      .poll(() => t.page.locator('#panel-trace .span-row.selected').getAttribute('data-event-id'))
      .toBe(eventId);
    await t.shot('trace-waterfall');
  });

  it('agent graph: sub-agents, tools and transfers drawn; the selected event highlighted', async () => {
    await t.page.locator('.tool[data-kind="call"] summary', { hasText: 'get_weather' }).click();
    await t.page.click('[data-tab="graph"]');
    const graph = t.page.locator('#panel-graph svg.agent-graph');
    await graph.waitFor();
    for (const node of [
      'agent:router',
      'agent:weather',
      'agent:news',
      'tool:weather/get_weather',
      'tool:news/get_news',
    ])
      await expect(graph.locator(`[data-node="${node}"]`).count()).resolves.toBe(1);
    await expect(graph.locator('.edge.sub-agent').count()).resolves.toBe(2);
    await expect(graph.locator('[data-transfer="router>weather"]').count()).resolves.toBe(1);
    const highlighted = await graph
      .locator('.node.highlight')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-node')));
    expect(highlighted.sort()).toEqual(['agent:weather', 'tool:weather/get_weather']);
    await t.shot('agent-graph');
  });

  it('state: edited in the panel, sent as a state delta and stored as an event', async () => {
    await t.page.click('[data-tab="state"]');
    await t.page.click('#state-edit');
    const state = JSON.parse(await t.page.inputValue('#state-editor')) as Record<string, unknown>;
    await t.page.fill('#state-editor', JSON.stringify({ ...state, mood: 'sunny' }, null, 2));
    await t.page.click('#state-save');
    await expect
      .poll(() => t.page.locator('#state-view').textContent())
      .toContain('"mood": "sunny"');
    const session = (await (
      await fetch(`${t.server.url}/apps/router/users/user/sessions/${sessionId()}`)
    ).json()) as { state: Record<string, unknown>; events: { actions: { stateDelta: unknown } }[] };
    expect(session.state.mood).toBe('sunny');
    expect(session.events.at(-1)?.actions.stateDelta).toEqual({ mood: 'sunny' });
    // Invalid JSON is refused with a readable message, nothing sent.
    await t.page.click('#state-edit');
    await t.page.fill('#state-editor', '{ not json');
    await t.page.click('#state-save');
    await expect(t.page.locator('.state-message').textContent()).resolves.toMatch(
      /^Not saved: SyntaxError/,
    );
    await t.shot('state-panel');
  });

  it('artifacts: every artifact with its versions, previews of text, JSON and images, download', async () => {
    await t.open('reports');
    await t.page.click('#new-session');
    await t.say('Write a report about space');
    const base = `${t.server.url}/apps/reports/users/user/sessions/${sessionId()}/artifacts`;
    const save = (filename: string, artifact: unknown) =>
      fetch(base, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ filename, artifact }),
      });
    await save('space.md', { text: '# space, second version' });
    await save('chart.png', { inlineData: { mimeType: 'image/png', data: PNG } });
    await save('data.json', {
      inlineData: {
        mimeType: 'application/json',
        data: Buffer.from('{"a":[1,2]}').toString('base64'),
      },
    });
    await t.page.click('[data-tab="state"]');
    await t.page.click('[data-tab="artifacts"]');
    const row = (name: string) => t.page.locator(`#panel-artifacts .artifact[data-name="${name}"]`);
    await row('space.md').waitFor();
    await expect(row('space.md').locator('option').allTextContents()).resolves.toEqual([
      'v1',
      'v0',
    ]);
    await expect(row('space.md').locator('.preview').textContent()).resolves.toBe(
      '# space, second version',
    );
    await row('space.md').locator('select').selectOption('0');
    await expect
      .poll(() => row('space.md').locator('.preview').textContent())
      .toMatch(/^# space\n/);
    await expect(row('data.json').locator('.preview.json').textContent()).resolves.toBe(
      '{\n  "a": [\n    1,\n    2\n  ]\n}',
    );
    const image = row('chart.png').locator('img.preview');
    await expect
      .poll(() => image.evaluate((node) => (node as HTMLImageElement).naturalWidth))
      .toBe(1);
    const [download] = await Promise.all([
      t.page.waitForEvent('download'),
      row('data.json').locator('button.download').click(),
    ]);
    expect(download.suggestedFilename()).toBe('data.json');
    expect(readFileSync((await download.path())!, 'utf8')).toBe('{"a":[1,2]}');
    await t.shot('artifacts-panel');
  });

  it('composer upload: small files inline, large ones stored as artifacts', async () => {
    await t.page.click('#new-session');
    const small = join(t.dir, 'note.txt');
    const large = join(t.dir, 'big.txt');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(small, 'hello file');
    writeFileSync(large, 'x'.repeat(600 * 1024));
    await t.page.setInputFiles('#file-input', [small, large]);
    await expect(t.page.locator('#attachments .chip').count()).resolves.toBe(2);
    await t.say('Write a report about files');
    const session = (await (
      await fetch(`${t.server.url}/apps/reports/users/user/sessions/${sessionId()}`)
    ).json()) as {
      events: {
        author: string;
        content?: { parts: Record<string, { displayName?: string; data?: string } | string>[] };
      }[];
    };
    const parts = session.events.find((event) => event.author === 'user')!.content!.parts;
    const inline = parts.find((part) => typeof part.inlineData === 'object');
    expect(inline?.inlineData).toMatchObject({
      displayName: 'note.txt',
      data: Buffer.from('hello file').toString('base64'),
    });
    expect(
      parts.some(
        (part) =>
          typeof part.text === 'string' &&
          part.text.includes('saved as the artifact "big.txt", version 0'),
      ),
    ).toBe(true);
    const names = (await (
      await fetch(`${t.server.url}/apps/reports/users/user/sessions/${sessionId()}/artifacts`)
    ).json()) as string[];
    expect(names).toContain('big.txt');
    await expect(t.page.locator('.note.attachment', { hasText: 'note.txt' }).count()).resolves.toBe(
      1,
    );
    await t.shot('composer-upload');
  });
});
