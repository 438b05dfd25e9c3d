import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Event } from '@adk/core';
import { listen } from '@adk/server';
import { describe, expect, it } from 'vitest';

import { createPlayground, DemoModel, loadConfig } from '../src';

const url = process.env.ADK_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** True when something accepts TCP connections at the URL's host and port. */
function reachable(): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 5432) });
    socket.setTimeout(2000, () => socket.destroy());
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });
}

const available = await reachable();
if (!available && process.env.CI === 'true')
  throw new Error(`PostgreSQL is not reachable at ${url}; CI=true forbids skipping.`);
if (!available)
  console.warn(`Skipping the playground's PostgreSQL test: nothing answers at ${url}.`);

describe.skipIf(!available)('the playground on PostgreSQL', () => {
  it('switches the session store with ADK_SESSION_URL alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adk-playground-pg-'));
    const userId = `pg-${randomUUID()}`;
    const config = loadConfig({ ADK_SESSION_URL: url }, dir);
    const first = await createPlayground(config, { model: new DemoModel({ wordDelayMs: 0 }) });
    let server = await listen(first.app, { port: 0 });
    try {
      const created = (await (
        await fetch(`${server.url}/apps/router/users/${userId}/sessions`, { method: 'POST' })
      ).json()) as { id: string };
      const response = await fetch(`${server.url}/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          app_name: 'router',
          user_id: userId,
          session_id: created.id,
          new_message: { parts: [{ text: 'Weather in Oslo?' }] },
        }),
      });
      const events = (await response.json()) as Event[];
      expect(events.at(-1)?.content?.parts[0]?.text).toContain('Oslo');
      await server.close();
      await first.close();

      const second = await createPlayground(config, { model: new DemoModel({ wordDelayMs: 0 }) });
      server = await listen(second.app, { port: 0 });
      const session = (await (
        await fetch(`${server.url}/apps/router/users/${userId}/sessions/${created.id}`)
      ).json()) as { events: Event[] };
      expect(session.events.map((e) => e.id).slice(1)).toEqual(events.map((e) => e.id));
      await fetch(`${server.url}/apps/router/users/${userId}/sessions/${created.id}`, {
        method: 'DELETE',
      });
      await server.close();
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
