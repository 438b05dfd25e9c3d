import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';

import type { Event } from '@adk/core';
import { afterEach, describe, expect, it } from 'vitest';

import { chat, loadAgentModule, serve, type ServeHandle } from '../src';

const agentsDir = fileURLToPath(new URL('./fixtures/applications/', import.meta.url));
const file = join(agentsDir, 'support.ts');

let server: ServeHandle | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('an agent file exporting an App', () => {
  it('loads the app and its root agent', async () => {
    const loaded = await loadAgentModule(file);
    expect(loaded.agent.name).toBe('helpdesk');
    expect(loaded.app?.name).toBe('support');
  });

  it('adk web / api_server run it with the app’s plugins, sessions under the folder’s app name', async () => {
    dir = mkdtempSync(join(tmpdir(), 'adk-cli-app-'));
    server = await serve({ agentsDir, port: 0, sessionServiceUri: `sqlite:${join(dir, 's.db')}` });
    expect(await (await fetch(`${server.url}/list-apps`)).json()).toEqual(['support']);
    await fetch(`${server.url}/apps/support/users/u/sessions/s1`, { method: 'POST' });
    const run = async (text: string) => {
      const response = await fetch(`${server!.url}/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          app_name: 'support',
          user_id: 'u',
          session_id: 's1',
          new_message: { parts: [{ text }] },
        }),
      });
      return (await response.json()) as Event[];
    };
    const events = await run('My printer is broken');
    expect(events.map((event) => event.content?.parts[0]?.text)).toEqual([
      'Have you tried turning it off and on?',
      'Have you tried turning it off and on? -- the support team',
    ]);
    await run('Still broken');
    const { Signature } = (await import(file)) as { Signature: { inits: number } };
    expect(Signature.inits).toBe(1);
  });

  it('adk run chats with it, with the app’s plugins', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString()));
    input.end('hello\nexit\n');
    await chat({ agentFile: file, input, output });
    expect(text).toContain('Have you tried turning it off and on? -- the support team');
  });
});
