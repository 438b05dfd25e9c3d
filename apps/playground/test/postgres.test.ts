import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Event } from '@adk/core';
import { listen } from '@adk/server';
import { POSTGRES_URL, postgresUnavailable } from '@adk/test-databases';
import { describe, expect, it } from 'vitest';

import { createPlayground, DemoModel, loadConfig } from '../src';

const skipPostgres = await postgresUnavailable();

describe.skipIf(skipPostgres !== undefined)('the playground on PostgreSQL', () => {
  it('switches the session store with ADK_SESSION_URL alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adk-playground-pg-'));
    const userId = `pg-${randomUUID()}`;
    const config = loadConfig({ ADK_SESSION_URL: POSTGRES_URL }, dir);
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
