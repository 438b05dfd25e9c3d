import { existsSync } from 'node:fs';
import { join } from 'node:path';

import type { Event } from '@adk/core';
import { describe, expect, it } from 'vitest';

import { demoPlaygroundEachTest } from './demo-playground';
import { sseEvents } from './sse';

const demo = demoPlaygroundEachTest('adk-playground-');

async function createSession(app: string): Promise<string> {
  const response = await fetch(`${demo.server.url}/apps/${app}/users/u1/sessions`, {
    method: 'POST',
  });
  return ((await response.json()) as { id: string }).id;
}

async function turn(app: string, sessionId: string, message: object): Promise<Event[]> {
  const response = await fetch(`${demo.server.url}/run_sse`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      app_name: app,
      user_id: 'u1',
      session_id: sessionId,
      new_message: message,
      streaming: true,
    }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return sseEvents(text);
}
const say = (text: string) => ({ role: 'user', parts: [{ text }] });
const calls = (events: Event[]) =>
  events.flatMap((e) =>
    (e.content?.parts ?? []).flatMap((p) =>
      p.functionCall ? [`${e.author}:${p.functionCall.name}`] : [],
    ),
  );
const finalText = (events: Event[]) =>
  events
    .filter((e) => !e.partial)
    .flatMap((e) => (e.content?.parts ?? []).map((p) => p.text ?? ''))
    .join('');

describe('the playground on the offline demo model', () => {
  it('routes weather and news questions to the specialists, calls their tools and streams the answers', async () => {
    const sessionId = await createSession('router');
    const weather = await turn('router', sessionId, say("What's the weather in Paris?"));
    expect(calls(weather)).toEqual(['router:transfer_to_agent', 'weather:get_weather']);
    expect(weather.filter((e) => e.partial).length).toBeGreaterThan(3);
    expect(finalText(weather)).toMatch(
      /From get_weather: city: Paris, condition: [a-z ]+, temperature celsius: \d+/,
    );

    const news = await turn('router', sessionId, say('Any news about space?'));
    expect(calls(news)).toContain('news:get_news');
    expect(finalText(news)).toContain('telescope');
  });

  it('saves a report as an artifact and publishes it only after a human approves', async () => {
    const sessionId = await createSession('reports');
    const written = await turn('reports', sessionId, say('Write a report about space'));
    expect(calls(written)).toEqual(['reports:write_report']);
    const saved = written.find((e) => Object.keys(e.actions.artifactDelta).length > 0)!;
    const [filename, version] = Object.entries(saved.actions.artifactDelta)[0]!;
    const artifact = await fetch(
      `${demo.server.url}/apps/reports/users/u1/sessions/${sessionId}/artifacts/${filename}?version=${version}`,
    );
    expect(((await artifact.json()) as { text: string }).text).toMatch(/^# /);

    const asked = await turn('reports', sessionId, say('Publish the report'));
    const request = asked
      .flatMap((e) => e.content?.parts ?? [])
      .find((p) => p.functionCall?.name === 'adk_request_confirmation');
    expect(request?.functionCall?.args).toMatchObject({
      originalFunctionCall: { name: 'publish_report' },
    });
    const before = (await (
      await fetch(`${demo.server.url}/apps/reports/users/u1/sessions/${sessionId}`)
    ).json()) as { state: object };
    expect(before.state).not.toHaveProperty('published_reports');

    const approved = await turn('reports', sessionId, {
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: request!.functionCall!.id,
            name: 'adk_request_confirmation',
            response: { confirmed: true },
          },
        },
      ],
    });
    expect(finalText(approved)).toContain('published');
    const after = (await (
      await fetch(`${demo.server.url}/apps/reports/users/u1/sessions/${sessionId}`)
    ).json()) as { state: object };
    expect(after.state).toMatchObject({ published_reports: [filename] });
  });

  it('keeps sessions in SQLite across restarts', async () => {
    const sessionId = await createSession('router');
    await turn('router', sessionId, say('Weather in Rome?'));
    await demo.restart();
    const sessions = (await (
      await fetch(`${demo.server.url}/apps/router/users/u1/sessions`)
    ).json()) as Array<{ id: string }>;
    expect(sessions.map((s) => s.id)).toEqual([sessionId]);
    const session = (await (
      await fetch(`${demo.server.url}/apps/router/users/u1/sessions/${sessionId}`)
    ).json()) as { events: Event[] };
    expect(session.events[0]?.content?.parts[0]?.text).toBe('Weather in Rome?');
    expect(finalText(session.events)).toContain('Rome');
  });

  it('serves its apps over A2A: the router card, and message/send answered by the demo model', async () => {
    const card = (await (
      await fetch(`${demo.server.url}/a2a/router/.well-known/agent-card.json`)
    ).json()) as { name: string; url: string; skills: { id: string }[] };
    expect(card.name).toBe('router');
    expect(card.url).toBe(`${demo.server.url}/a2a/router`);
    expect(card.skills.map((skill) => skill.id)).toEqual(
      expect.arrayContaining(['router', 'weather', 'weather.get_weather', 'news']),
    );

    const response = await fetch(card.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: {
          message: {
            kind: 'message',
            messageId: 'm1',
            role: 'user',
            parts: [{ kind: 'text', text: "What's the weather in Paris?" }],
          },
        },
      }),
    });
    const { result: task } = (await response.json()) as {
      result: {
        contextId: string;
        status: { state: string };
        artifacts: { parts: { kind: string; text?: string }[] }[];
      };
    };
    expect(task.status.state).toBe('completed');
    const answer = task.artifacts[0]?.parts.map((part) => part.text ?? '').join('');
    expect(answer).toMatch(/From get_weather: city: Paris, condition: [a-z ]+/);

    // The conversation is an ordinary session of the app, in the playground's SQLite store.
    const user = `A2A_USER_${task.contextId}`;
    const session = (await (
      await fetch(`${demo.server.url}/apps/router/users/${user}/sessions/${task.contextId}`)
    ).json()) as { events: Event[] };
    expect(calls(session.events)).toEqual(['router:transfer_to_agent', 'weather:get_weather']);
  });

  it('serves the web page with the offline notice', async () => {
    expect((await fetch(`${demo.server.url}/`)).status).toBe(200);
    const config = (await (await fetch(`${demo.server.url}/web-ui/config`)).json()) as {
      notice: string;
    };
    expect(config.notice).toMatch(/Offline demo model/);
  });

  it('runs a background job with no configuration: SQLite job store and a worker in process', async () => {
    expect(demo.playground.jobs.description).toBe(
      `sqlite:${join(demo.dir, 'db', 'playground.jobs.db')}`,
    );
    expect(demo.playground.jobs.worker).toBeDefined();
    expect(existsSync(join(demo.dir, 'db', 'playground.jobs.db'))).toBe(true);
    const created = await fetch(`${demo.server.url}/apps/router/users/u1/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ new_message: say('What is the weather in Paris?') }),
    });
    expect(created.status).toBe(201);
    const job = (await created.json()) as { id: string };
    const read = async () =>
      (await (await fetch(`${demo.server.url}/apps/router/users/u1/jobs/${job.id}`)).json()) as {
        state: string;
        createdAt: number;
        startedAt?: number;
        result?: { finalText: string; sessionId: string };
      };
    await expect.poll(async () => (await read()).state, { timeout: 30_000 }).toBe('completed');
    const { result, createdAt, startedAt } = await read();
    expect(result?.sessionId).toBe(`job-${job.id}`);
    expect(result?.finalText).toMatch(/From get_weather: city: Paris/);
    // The run went through the router to the weather specialist, in its own session.
    const session = (await (
      await fetch(`${demo.server.url}/apps/router/users/u1/sessions/job-${job.id}`)
    ).json()) as { events: Event[] };
    expect(calls(session.events)).toEqual(['router:transfer_to_agent', 'weather:get_weather']);
    // The enqueue wakes the worker: the run starts without waiting for its one-second poll.
    expect(startedAt! - createdAt).toBeLessThan(500);
  });
});
