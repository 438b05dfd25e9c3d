import { fileURLToPath } from 'node:url';

import { FunctionTool, InMemorySessionService, LlmAgent, type Tool } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { McpToolset, serveAsMcp, type McpServing } from '../src';
import { toolContext } from './helpers/servers';

let serving: McpServing | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await serving?.close();
  serving = undefined;
});

function parrot() {
  const model = new FakeModel({
    responses: (request) => {
      const said = request.contents
        .filter((content) => content.role === 'user')
        .flatMap((content) => content.parts.map((part) => part.text ?? ''));
      return `I have heard: ${said.join(' | ')}`;
    },
  });
  return {
    model,
    agent: new LlmAgent({ name: 'parrot', description: 'Repeats what it heard.', model }),
  };
}

async function httpClient(
  url: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text: string }[]).map((block) => block.text).join('');

describe('serveAsMcp over Streamable HTTP', () => {
  it("answers the SDK's Client twice in one session, kept in the configured session service", async () => {
    const sessionService = new InMemorySessionService();
    const { agent } = parrot();
    serving = await serveAsMcp(agent, { transport: 'streamable-http', sessionService });
    const { client, transport } = await httpClient(serving.url!);

    const { tools } = await client.listTools();
    expect(tools).toEqual([
      expect.objectContaining({
        name: 'parrot',
        description: 'Repeats what it heard.',
        inputSchema: expect.objectContaining({ required: ['message'] }),
      }),
    ]);
    const first = await client.callTool({ name: 'parrot', arguments: { message: 'one' } });
    const second = await client.callTool({ name: 'parrot', arguments: { message: 'two' } });
    expect(textOf(first)).toBe('I have heard: one');
    expect(textOf(second)).toBe('I have heard: one | two');

    const session = await sessionService.getSession({
      appName: 'parrot',
      userId: 'mcp-user',
      sessionId: `mcp-${transport.sessionId}`,
    });
    expect(session?.events.map((event) => event.author)).toEqual([
      'user',
      'parrot',
      'user',
      'parrot',
    ]);

    // Another MCP session is another conversation.
    const other = await httpClient(serving.url!);
    const fresh = await other.client.callTool({ name: 'parrot', arguments: { message: 'three' } });
    expect(textOf(fresh)).toBe('I have heard: three');
  });

  it('serves ADK tools, keeps their state per MCP session, and McpToolset can use them', async () => {
    const counter = new FunctionTool({
      name: 'count',
      description: 'Counts the calls of this session.',
      parameters: z.object({ step: z.number().int() }),
      execute: ({ step }, context) => {
        const next = ((context.state.get('count') as number | undefined) ?? 0) + step;
        context.state.set('count', next);
        return { count: next };
      },
    });
    const broken = new FunctionTool({
      name: 'broken',
      description: 'Always fails.',
      execute: () => {
        throw new Error('out of order');
      },
    });
    serving = await serveAsMcp([counter, broken] as Tool[], { transport: 'streamable-http' });
    const { client } = await httpClient(serving.url!);
    await client.callTool({ name: 'count', arguments: { step: 2 } });
    const second = await client.callTool({ name: 'count', arguments: { step: 3 } });
    expect(second.structuredContent).toEqual({ count: 5 });
    const failed = await client.callTool({ name: 'broken', arguments: {} });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toContain('out of order');
    const invalid = await client.callTool({ name: 'count', arguments: { step: 'x' } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain('INVALID_TOOL_ARGUMENTS');

    // Round trip: our own client toolset on our own server.
    const toolset = new McpToolset({
      name: 'served',
      connection: { transport: 'streamable-http', url: serving.url! },
    });
    try {
      const tools = await toolset.getTools(toolContext());
      expect(tools.map((tool) => tool.name)).toEqual(['count', 'broken']);
      expect(await tools[0]!.run({ step: 7 }, toolContext())).toMatchObject({
        structuredContent: { count: 7 },
      });
    } finally {
      await toolset.close();
    }
  });
});

describe('serveAsMcp HTTP sessions', () => {
  it('closes an MCP session left idle, so abandoned sessions do not pile up', async () => {
    const { agent } = parrot();
    serving = await serveAsMcp(agent, { transport: 'streamable-http', sessionIdleMs: 3_000 });
    const { client, transport } = await httpClient(serving.url!);
    await client.callTool({ name: 'parrot', arguments: { message: 'hi' } });
    const ping = () =>
      fetch(serving!.url!, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': transport.sessionId!,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'ping' }),
      });
    // Long enough that a busy machine does not close it between the call and this ping.
    expect((await ping()).status).toBe(200);
    // Each ping is activity: ask less often than the idle time, until the session is gone.
    await expect
      .poll(async () => (await ping()).status, { timeout: 60_000, interval: 4_000 })
      .toBe(404);
  });
});

describe('serveAsMcp over stdio', () => {
  it("answers the SDK's Client twice in one session", async () => {
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        '--conditions=source',
        '--import',
        'tsx',
        fileURLToPath(new URL('./fixtures/serve-agent.ts', import.meta.url)),
      ],
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stderr: 'pipe',
    });
    await client.connect(transport);
    clients.push(client);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['parrot']);
    const first = await client.callTool({ name: 'parrot', arguments: { message: 'hello' } });
    const second = await client.callTool({ name: 'parrot', arguments: { message: 'again' } });
    expect(textOf(first)).toBe('I have heard: hello');
    expect(textOf(second)).toBe('I have heard: hello | again');
  });
});
