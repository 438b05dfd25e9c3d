import { getEventListeners } from 'node:events';

import type { ReadonlyContext } from '@adk/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  McpServerStartError,
  McpTimeoutError,
  McpTool,
  McpToolset,
  type McpToolsetOptions,
} from '../src';
import { startTestHttpServer, type TestHttpServer } from './helpers/http-server';
import { toolContext, waitFor } from './helpers/servers';

let server: TestHttpServer;
const open: McpToolset[] = [];
beforeEach(async () => {
  server = await startTestHttpServer();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((toolset) => toolset.close()));
  await server.close();
});

function remote(options: Partial<McpToolsetOptions> = {}): McpToolset {
  const toolset = new McpToolset({
    name: 'test-http',
    connection: { transport: 'streamable-http', url: server.url },
    ...options,
  });
  open.push(toolset);
  return toolset;
}

async function tool(toolset: McpToolset, name: string, context = toolContext()): Promise<McpTool> {
  const found = (await toolset.getTools(context)).find((t) => t.name === name);
  if (!(found instanceof McpTool)) throw new Error(`no tool ${name}`);
  return found;
}

describe('McpToolset over Streamable HTTP (SDK server)', () => {
  it('lists and calls tools on one session, concurrent calls included', async () => {
    const toolset = remote();
    expect((await toolset.getTools(toolContext())).map((t) => t.name)).toEqual([
      'add',
      'whoami',
      'slow',
      'fail',
      'add-tool',
    ]);
    const add = await tool(toolset, 'add');
    const run = new AbortController();
    const sums = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        add.run({ a: i, b: 1 }, toolContext({ signal: run.signal })),
      ),
    );
    // However many calls a run makes, its signal holds one listener of ours.
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(1);
    expect(sums).toEqual(
      Array.from({ length: 10 }, (_, i) => ({
        result: String(i + 1),
        structuredContent: { sum: i + 1 },
      })),
    );
    expect(server.log.sessions).toHaveLength(1);
  });

  it("gives an isError result back as the tool's error, not a crash", async () => {
    const fail = await tool(remote(), 'fail');
    expect(await fail.run({}, toolContext())).toEqual({
      error: { code: 'MCP_TOOL_ERROR', message: 'the disk is full' },
    });
  });

  it('sends headers computed per request from the calling run', async () => {
    const toolset = remote({
      connection: {
        transport: 'streamable-http',
        url: server.url,
        headers: (context: ReadonlyContext | undefined) => ({
          'x-user': context?.userId ?? 'anonymous',
        }),
      },
    });
    const whoami = await tool(toolset, 'whoami');
    const as = (userId: string) => ({ ...toolContext(), userId }) as ReturnType<typeof toolContext>;
    expect(await whoami.run({}, as('alice'))).toEqual({ result: 'alice' });
    expect(await whoami.run({}, as('bob'))).toEqual({ result: 'bob' });
    expect(server.log.users).toEqual(['alice', 'bob']);
  });

  it('refreshes the tool list when the server sends list_changed', async () => {
    const toolset = remote();
    const addTool = await tool(toolset, 'add-tool');
    expect(await addTool.run({ name: 'late' }, toolContext())).toEqual({ result: 'added late' });
    await waitFor(() => toolset.connection.toolsGeneration > 0);
    const late = await tool(toolset, 'late');
    expect(await late.run({}, toolContext())).toEqual({ result: 'I am late' });
    expect(server.log.sessions).toHaveLength(1);
  });

  it('sends the cancellation notification on timeout and on abort', async () => {
    const toolset = remote({ timeoutMs: 200 });
    const slow = await tool(toolset, 'slow');
    const timedOut = await slow
      .run({ name: 't', ms: 10_000 }, toolContext())
      .catch((e: unknown) => e);
    expect(McpTimeoutError.isInstance(timedOut)).toBe(true);
    await waitFor(() => server.log.cancelled.includes('t'));

    const controller = new AbortController();
    const aborted = slow
      .run({ name: 'a', ms: 10_000 }, toolContext({ signal: controller.signal }))
      .catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    expect(await aborted).toMatchObject({ code: 'MCP_REQUEST_FAILED' });
    await waitFor(() => server.log.cancelled.includes('a'));
  });

  it('opens a new session transparently when the server forgot the old one', async () => {
    const toolset = remote();
    const add = await tool(toolset, 'add');
    expect(await add.run({ a: 1, b: 1 }, toolContext())).toMatchObject({ result: '2' });
    await server.expireSessions();
    expect(await add.run({ a: 2, b: 2 }, toolContext())).toMatchObject({ result: '4' });
    expect(server.log.sessions).toHaveLength(2);
  });

  it('reports a server that does not answer as a start failure', async () => {
    const address = new URL(server.url);
    await server.close();
    const toolset = remote({ connection: { transport: 'streamable-http', url: address } });
    const error = await toolset.getTools(toolContext()).catch((e: unknown) => e);
    expect(McpServerStartError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(address.host);
    server = await startTestHttpServer();
  });
});

describe('McpToolset over legacy SSE (SDK server)', () => {
  it('lists and calls tools', async () => {
    const toolset = remote({ connection: { transport: 'sse', url: server.sseUrl } });
    const add = await tool(toolset, 'add');
    expect(await add.run({ a: 20, b: 22 }, toolContext())).toEqual({
      result: '42',
      structuredContent: { sum: 42 },
    });
  });
});
