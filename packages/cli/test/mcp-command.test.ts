import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { createSessionService } from '@adk/session-sql';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../bin/adk.js', import.meta.url));
const agentFile = fileURLToPath(new URL('./fixtures/agents/weather_app/agent.ts', import.meta.url));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adk-cli-mcp-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('adk mcp', () => {
  it('serves an agent file over stdio; two calls continue one stored session', async () => {
    const uri = `sqlite:${join(dir, 'sessions.db')}`;
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', agentFile, '--session_service_uri', uri],
      stderr: 'pipe',
    });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['weather_agent']);
      for (const city of ['Paris', 'Oslo']) {
        const result = await client.callTool({
          name: 'weather_agent',
          arguments: { message: city },
        });
        expect(result.content).toEqual([{ type: 'text', text: 'The weather is sunny.' }]);
      }
    } finally {
      await client.close();
    }

    const store = await createSessionService(uri);
    try {
      const { sessions } = await store.listSessions({ appName: 'weather_app', userId: 'mcp-user' });
      expect(sessions).toHaveLength(1);
      const session = await store.getSession({
        appName: 'weather_app',
        userId: 'mcp-user',
        sessionId: sessions[0]!.id,
      });
      const said = session!.events
        .filter((event) => event.author === 'user')
        .flatMap((event) => event.content?.parts.map((part) => part.text) ?? []);
      expect(said).toEqual(['Paris', 'Oslo']);
    } finally {
      await store.close();
    }
  });
});
