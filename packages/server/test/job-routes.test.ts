import { InMemorySessionService, LlmAgent, Runner } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { InMemoryJobStore, JobWorker } from '@adk/jobs';
import { afterEach, describe, expect, it } from 'vitest';

import { createAdkServer, listen, type RunningServer } from '../src';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(withJobs: boolean) {
  const sessionService = new InMemorySessionService();
  const agent = new LlmAgent({
    name: 'analyst',
    model: new FakeModel({ responses: () => 'Revenue grew 12%.' }),
  });
  const runner = new Runner({ appName: 'reports', agent, sessionService });
  const jobStore = new InMemoryJobStore();
  const app = createAdkServer({
    apps: { reports: { agent, runner } },
    sessionService,
    ...(withJobs ? { jobStore } : {}),
  });
  server = await listen(app, { port: 0 });
  const url = (path: string) => `${server!.url}${path}`;
  return { url, jobStore, runner };
}

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('background job routes', () => {
  it('enqueues a run, shows its state, and its result once a worker ran it', async () => {
    const { url, jobStore, runner } = await start(true);
    const created = await fetch(
      url('/apps/reports/users/u1/jobs'),
      json({ new_message: { role: 'user', parts: [{ text: 'Analyze Q3' }] } }),
    );
    expect(created.status).toBe(201);
    const job = (await created.json()) as { id: string; state: string };
    expect(job.state).toBe('pending');
    const path = `/apps/reports/users/u1/jobs/${job.id}`;
    expect(await (await fetch(url(path))).json()).toMatchObject({ id: job.id, state: 'pending' });
    await new JobWorker({ store: jobStore, runners: [runner] }).drain();
    expect(await (await fetch(url(path))).json()).toMatchObject({
      state: 'completed',
      result: { finalText: 'Revenue grew 12%.' },
    });
    const listed = (await (await fetch(url('/apps/reports/users/u1/jobs'))).json()) as unknown[];
    expect(listed).toHaveLength(1);
    // Another user does not see it; a finished job cannot be cancelled.
    expect((await fetch(url(`/apps/reports/users/u2/jobs/${job.id}`))).status).toBe(404);
    expect((await fetch(url(path), { method: 'DELETE' })).status).toBe(409);
  });

  it('cancels a pending job, refuses bad bodies and unknown apps', async () => {
    const { url } = await start(true);
    const bad = await fetch(url('/apps/reports/users/u1/jobs'), json({ new_message: {} }));
    expect(bad.status).toBe(400);
    const unknown = await fetch(
      url('/apps/nope/users/u1/jobs'),
      json({ new_message: { parts: [{ text: 'x' }] } }),
    );
    expect(unknown.status).toBe(404);
    const job = (await (
      await fetch(
        url('/apps/reports/users/u1/jobs'),
        json({ new_message: { parts: [{ text: 'later' }] }, run_in_ms: 60_000 }),
      )
    ).json()) as { id: string };
    const cancelled = await fetch(url(`/apps/reports/users/u1/jobs/${job.id}`), {
      method: 'DELETE',
    });
    expect(await cancelled.json()).toMatchObject({ state: 'cancelled' });
  });

  it('answers 501 without a job store', async () => {
    const { url } = await start(false);
    expect((await fetch(url('/apps/reports/users/u1/jobs'))).status).toBe(501);
  });
});
