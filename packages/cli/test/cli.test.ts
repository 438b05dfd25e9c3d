import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';

import type { Event } from '@adk/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { AgentLoadError, chat, findApps, loadAgentFile, serve, type ServeHandle } from '../src';
import { spawnTracked } from './child-processes';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const agentsDir = join(fixtures, 'agents');
const bin = fileURLToPath(new URL('../bin/adk.js', import.meta.url));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adk-cli-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Run the real `adk` launcher (no build: it goes through tsx) with some standard input. */
function runBin(
  args: string[],
  stdin = '',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawnTracked(process.execPath, [bin, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe('loading agents', () => {
  it('finds one app per sub-folder or file, skipping test files', () => {
    const apps = findApps(agentsDir);
    expect([...apps.keys()]).toEqual(['greeter', 'weather_app']);
    expect(apps.get('weather_app')).toBe(join(agentsDir, 'weather_app', 'agent.ts'));
  });

  it('loads `rootAgent` or a default export (an agent or a function returning one)', async () => {
    expect((await loadAgentFile(join(agentsDir, 'weather_app', 'agent.ts'))).name).toBe(
      'weather_agent',
    );
    expect((await loadAgentFile(join(agentsDir, 'greeter.ts'))).name).toBe('greeter');
  });

  it('explains what is wrong with a file that exports no agent, or a missing one', async () => {
    const error = await loadAgentFile(join(fixtures, 'broken', 'no-agent.ts')).catch(
      (e: unknown) => e,
    );
    expect(AgentLoadError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/exports no agent: export `rootAgent`/);
    await expect(loadAgentFile(join(fixtures, 'nope.ts'))).rejects.toThrow(/Agent file not found/);
    expect(() => findApps(join(fixtures, 'missing-folder'))).toThrow(/Agents folder not found/);
  });
});

describe('adk api_server / adk web', () => {
  let server: ServeHandle | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('serves every app of the folder over the ADK API on a SQLite store, and the page with web', async () => {
    server = await serve({
      agentsDir,
      port: 0,
      sessionServiceUri: `sqlite:${join(dir, 's.db')}`,
      web: true,
    });
    expect(await (await fetch(`${server.url}/list-apps`)).json()).toEqual([
      'greeter',
      'weather_app',
    ]);
    await fetch(`${server.url}/apps/weather_app/users/u/sessions/s1`, { method: 'POST' });
    const response = await fetch(`${server.url}/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        app_name: 'weather_app',
        user_id: 'u',
        session_id: 's1',
        new_message: { parts: [{ text: 'Oslo' }] },
      }),
    });
    const events = (await response.json()) as Event[];
    expect(events.at(-1)?.content?.parts[0]?.text).toBe('The weather is sunny.');
    expect((await fetch(`${server.url}/`)).headers.get('content-type')).toMatch(/html/);
  });

  it('serves every app over A2A too with a2a (--a2a), on the same session store', async () => {
    server = await serve({
      agentsDir,
      port: 0,
      sessionServiceUri: `sqlite:${join(dir, 'a2a.db')}`,
      a2a: true,
    });
    const card = (await (
      await fetch(`${server.url}/a2a/greeter/.well-known/agent-card.json`)
    ).json()) as { name: string; url: string };
    expect(card).toMatchObject({ name: 'greeter', url: `${server.url}/a2a/greeter` });
    const response = await fetch(card.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'r1',
        method: 'message/send',
        params: {
          message: {
            kind: 'message',
            messageId: 'm1',
            role: 'user',
            parts: [{ kind: 'text', text: 'hi' }],
          },
        },
      }),
    });
    const { result } = (await response.json()) as {
      result: {
        contextId: string;
        status: { state: string };
        artifacts: { parts: { text: string }[] }[];
      };
    };
    expect(result.status.state).toBe('completed');
    expect(result.artifacts[0]?.parts[0]?.text).toBe('Hello there!');
    const user = `A2A_USER_${result.contextId}`;
    const session = (await (
      await fetch(`${server.url}/apps/greeter/users/${user}/sessions/${result.contextId}`)
    ).json()) as { events: unknown[] };
    expect(session.events).toHaveLength(2);
  });

  it('does not serve A2A unless asked', async () => {
    server = await serve({ agentsDir, port: 0 });
    expect((await fetch(`${server.url}/a2a/greeter/.well-known/agent-card.json`)).status).toBe(404);
  });

  it('does not serve the page for api_server', async () => {
    server = await serve({ agentsDir, port: 0 });
    expect((await fetch(`${server.url}/`)).status).toBe(404);
  });
});

describe('adk run', () => {
  it('chats in the terminal: streamed reply, tool call shown, session stored', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString()));
    input.end('Oslo\nexit\n');
    const uri = `sqlite:${join(dir, 'chat.db')}`;
    await chat({
      agentFile: join(agentsDir, 'weather_app', 'agent.ts'),
      input,
      output,
      sessionServiceUri: uri,
      sessionId: 'fixed',
    });
    expect(text).toContain('→ get_weather({"city":"Oslo"})');
    expect(text).toContain('← get_weather: {"city":"Oslo","condition":"sunny"}');
    expect(text).toContain('weather_agent > The weather is sunny.');
    expect(existsSync(join(dir, 'chat.db'))).toBe(true);
  });

  it('asks for approval in the terminal and runs the tool only when approved', async () => {
    const fixture = join(fixtures, 'approval', 'agent.ts');
    const { deleted } = (await import(fixture)) as { deleted: string[] };
    const session = async (answers: string) => {
      const input = new PassThrough();
      const output = new PassThrough();
      let text = '';
      output.on('data', (chunk: Buffer) => (text += chunk.toString()));
      input.end(answers);
      await chat({ agentFile: fixture, input, output });
      return text;
    };
    const rejected = await session('clean up\nn\nexit\n');
    expect(rejected).toContain('Approve delete_file({"path":"notes.txt"})? [y/N]');
    expect(deleted).toEqual([]);
    const approved = await session('clean up\ny\nexit\n');
    expect(approved).toContain('janitor > Done: {"deleted":"notes.txt"}');
    expect(deleted).toEqual(['notes.txt']);
  });

  it('stops the current turn on Ctrl+C and keeps chatting', async () => {
    const child = spawnTracked(process.execPath, [bin, 'run', join(fixtures, 'slow', 'agent.ts')], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const waiting = new Promise<void>((resolve) =>
      child.stderr.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('model waiting')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.write('hello\n');
    await waiting;
    child.kill('SIGINT');
    while (!stdout.includes('(stopped)'))
      await new Promise((resolve) => child.stdout.once('data', resolve));
    child.stdin.end('exit\n');
    expect(await exited).toBe(0);
    expect(stdout).toContain('slowpoke > Let me think\n(stopped)');
  });

  it('works through the `adk` launcher from the source checkout', async () => {
    // Without a build (the usual case in this repository) the launcher runs the sources via tsx.
    const help = await runBin(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('adk run <agent-file>');

    const chatRun = await runBin(['run', join(agentsDir, 'greeter.ts')], 'hi\n');
    expect(chatRun.stderr).toBe('');
    expect(chatRun.stdout).toContain('greeter > Hello there!');
    expect(chatRun.code).toBe(0);

    expect((await runBin(['api_server', '--help'])).stdout).toContain('--a2a');

    // `adk api_server --a2a`: the flag reaches the server.
    const child = spawnTracked(
      process.execPath,
      [bin, 'api_server', agentsDir, '--port', '0', '--a2a'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise((resolve) => child.on('close', resolve));
    while (!out.includes('A2A agents:')) {
      const ended = await Promise.race([
        new Promise((resolve) => child.stdout.once('data', resolve)).then(() => false),
        exited.then(() => true),
      ]);
      if (ended) break;
    }
    const url = /on (http:\/\/\S+)/.exec(out)?.[1];
    expect(out).toContain(`A2A agents: ${url}/a2a/<app>`);
    const card = await fetch(`${url}/a2a/weather_app/.well-known/agent-card.json`);
    expect(await card.json()).toMatchObject({ name: 'weather_agent' });
    child.kill('SIGTERM');
    await exited;

    const wrong = await runBin(['serve-everything']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Unknown command "serve-everything"');
  });
});
