import { App, BasePlugin, InMemorySessionService, LlmAgent, modelContent } from '@adk/core';
import type { AfterRunHookArgs, Content } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { afterEach, describe, expect, it } from 'vitest';

import { createAdkServer, listen, type RunningServer } from '../src';

/** Initialised once; signs every answer with the number of runs it has seen across the app. */
class Signature extends BasePlugin {
  inits = 0;
  runs = 0;
  constructor() {
    super('signature');
  }
  override init() {
    this.inits++;
  }
  override afterRun({ events }: AfterRunHookArgs): Content {
    this.runs++;
    const last = events.at(-1)?.content?.parts[0]?.text ?? '';
    return modelContent(`${last} [run ${this.runs}]`);
  }
}

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('an App served by the server', () => {
  it('runs with the app’s plugins, initialised once, sessions under the served name', async () => {
    const signature = new Signature();
    const sessionService = new InMemorySessionService();
    const app = new App({
      name: 'support',
      agent: new LlmAgent({ name: 'assistant', model: new FakeModel(['Hello.', 'Again.']) }),
      plugins: [signature],
    });
    server = await listen(
      createAdkServer({
        apps: { helpdesk: { app, autoCreateSession: true } },
        sessionService,
      }),
      { port: 0 },
    );
    const run = async (text: string) => {
      const response = await fetch(`${server!.url}/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          app_name: 'helpdesk',
          user_id: 'u1',
          session_id: 's1',
          new_message: { role: 'user', parts: [{ text }] },
        }),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as { author: string; content?: Content }[];
    };
    const first = await run('hi');
    const second = await run('hi again');
    expect(first.map((event) => event.content?.parts[0]?.text)).toEqual([
      'Hello.',
      'Hello. [run 1]',
    ]);
    expect(second.at(-1)?.content?.parts[0]?.text).toBe('Again. [run 2]');
    expect(signature.inits).toBe(1);
    const stored = await sessionService.getSession({
      appName: 'helpdesk',
      userId: 'u1',
      sessionId: 's1',
    });
    expect(stored?.events).toHaveLength(6);
    const apps = (await (await fetch(`${server.url}/list-apps`)).json()) as string[];
    expect(apps).toEqual(['helpdesk']);
  });
});
