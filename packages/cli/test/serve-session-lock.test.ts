import { fileURLToPath } from 'node:url';

import { postgresUnavailable } from '@adk/test-databases';
import { describe, expect, it } from 'vitest';

import { serve } from '../src';
import { onSharedPostgres, twoInstances } from './postgres-instances';

const agentsDir = fileURLToPath(new URL('./fixtures/slow-agents/', import.meta.url));
const noPostgres = await postgresUnavailable();

/** One `/run_sse` turn; the stream's `data:` frames as objects. */
async function turn(
  url: string,
  sessionId: string,
  text: string,
): Promise<Record<string, unknown>[]> {
  const response = await fetch(`${url}/run_sse`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      app_name: 'slow',
      user_id: 'u1',
      session_id: sessionId,
      new_message: { role: 'user', parts: [{ text }] },
    }),
  });
  expect(response.status).toBe(200);
  const body = await response.text();
  return body
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

describe.skipIf(noPostgres !== undefined)('adk api_server instances on one PostgreSQL', () => {
  it('run two turns sent at once to two instances on one session one after the other', () =>
    onSharedPostgres('cli_lock', ({ schema, sessionServiceUri, queueNamespace }) =>
      twoInstances(
        {
          agentsDir,
          port: 0,
          sessionServiceUri,
          queueNamespace,
          inProcessWorker: false,
          warn: () => undefined,
        },
        serve,
        async (first, second) => {
          const sessionId = `s-${schema}`;
          const created = await fetch(`${first.url}/apps/slow/users/u1/sessions/${sessionId}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          });
          expect(created.status).toBe(200);
          const [a, b] = await Promise.all([
            turn(first.url, sessionId, 'one'),
            turn(second.url, sessionId, 'two'),
          ]);
          for (const frames of [a, b]) {
            expect(frames.filter((frame) => 'error' in frame || 'errorCode' in frame)).toEqual([]);
            expect(frames.at(-1)?.content).toEqual({ role: 'model', parts: [{ text: 'paused' }] });
          }
          const stored = (await (
            await fetch(`${second.url}/apps/slow/users/u1/sessions/${sessionId}`)
          ).json()) as { events: { author: string; content?: { parts: { text?: string }[] } }[] };
          // Two whole turns, one after the other: user, call, response, answer, twice.
          const authors = stored.events.map((event) => event.author);
          expect(authors).toEqual(['user', 'slow', 'slow', 'slow', 'user', 'slow', 'slow', 'slow']);
          const texts = stored.events
            .filter((event) => event.author === 'user')
            .map((event) => event.content?.parts[0]?.text)
            .sort();
          expect(texts).toEqual(['one', 'two']);
        },
      ),
    ));
});
