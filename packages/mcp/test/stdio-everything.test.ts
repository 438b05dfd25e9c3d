import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { afterEach, describe, expect, it } from 'vitest';

import {
  McpInvalidArgumentsError,
  McpProtocolVersionError,
  McpServerStartError,
  McpTimeoutError,
  McpTool,
  McpToolNotFoundError,
  McpToolset,
  McpTransportClosedError,
  type McpToolsetOptions,
} from '../src';
import { everythingServer, fixtureServer, isAlive, toolContext, waitFor } from './helpers/servers';

const open: McpToolset[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((toolset) => toolset.close()));
});

function everything(options: Partial<McpToolsetOptions> = {}): McpToolset {
  const toolset = new McpToolset({
    name: 'everything',
    connection: everythingServer(),
    ...options,
  });
  open.push(toolset);
  return toolset;
}

async function tool(toolset: McpToolset, name: string): Promise<McpTool> {
  const found = (await toolset.getTools(toolContext())).find((t) => t.name === name);
  if (!(found instanceof McpTool)) throw new Error(`no tool ${name}`);
  return found;
}

describe('McpToolset over stdio (server-everything)', () => {
  it('lists the server tools with their JSON schemas', async () => {
    const tools = await everything().getTools(toolContext());
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image']));
    const sum = tools.find((t) => t.name === 'get-sum')!;
    expect(sum.declaration()).toEqual({
      name: 'get-sum',
      description: 'Returns the sum of two numbers',
      parameters: {
        type: 'object',
        properties: {
          a: { type: 'number', description: 'First number' },
          b: { type: 'number', description: 'Second number' },
        },
        required: ['a', 'b'],
      },
    });
  });

  it('names the server after the package a launcher starts, unless told', () => {
    expect(new McpToolset({ connection: everythingServer() }).name).toBe('server-everything');
    const npx = new McpToolset({
      connection: {
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '.'],
      },
    });
    expect(npx.name).toBe('server-filesystem');
    expect(
      new McpToolset({
        connection: { transport: 'streamable-http', url: 'http://127.0.0.1:9/mcp' },
      }).name,
    ).toBe('127.0.0.1:9');
    expect(everything().name).toBe('everything');
  });

  it('filters by names or predicate and prefixes the names the model sees', async () => {
    const byName = everything({ toolFilter: ['echo', 'get-sum'], toolNamePrefix: 'demo' });
    expect((await byName.getTools(toolContext())).map((t) => t.name)).toEqual([
      'demo_echo',
      'demo_get-sum',
    ]);
    const echo = await tool(byName, 'demo_echo');
    expect(echo.declaration().name).toBe('demo_echo');
    expect(await echo.run({ message: 'hi' }, toolContext())).toEqual({ result: 'Echo: hi' });

    const byPredicate = everything({ toolFilter: (info) => info.name.startsWith('get-t') });
    expect((await byPredicate.getTools(toolContext())).map((t) => t.name)).toEqual([
      'get-tiny-image',
    ]);
  });

  it('maps text, images, resource links, embedded resources and structuredContent', async () => {
    const toolset = everything();
    const image = (await (await tool(toolset, 'get-tiny-image')).run({}, toolContext())) as {
      content: { type: string; mimeType?: string; data?: string }[];
    };
    const png = image.content.find((part) => part.type === 'image')!;
    expect(png.mimeType).toBe('image/png');
    expect(Buffer.from(png.data!, 'base64').subarray(1, 4).toString()).toBe('PNG');

    const links = (await (
      await tool(toolset, 'get-resource-links')
    ).run({ count: 2 }, toolContext())) as { content: { type: string; uri?: string }[] };
    expect(links.content.filter((part) => part.type === 'resource_link')).toHaveLength(2);
    expect(links.content[1]).toMatchObject({
      type: 'resource_link',
      uri: expect.stringMatching(/^demo:\/\//),
    });

    const embedded = (await (
      await tool(toolset, 'get-resource-reference')
    ).run({ resourceType: 'Text', resourceId: 1 }, toolContext())) as {
      content: { type: string; text?: string; uri?: string }[];
    };
    expect(embedded.content.find((part) => part.type === 'resource')).toMatchObject({
      uri: 'demo://resource/dynamic/text/1',
      mimeType: 'text/plain',
      text: expect.stringContaining('Resource 1'),
    });

    const structured = (await (
      await tool(toolset, 'get-structured-content')
    ).run({ location: 'Chicago' }, toolContext())) as {
      structuredContent: { temperature: number; conditions: string };
    };
    expect(structured.structuredContent).toMatchObject({
      temperature: expect.any(Number),
      conditions: expect.any(String),
    });
  });

  it('reports invalid arguments and unknown tools as typed errors', async () => {
    const toolset = everything();
    const sum = await tool(toolset, 'get-sum');
    const invalid = await sum.run({ a: 'one', b: 2 }, toolContext()).catch((e: unknown) => e);
    expect(McpInvalidArgumentsError.isInstance(invalid)).toBe(true);
    expect((invalid as Error).message).toMatch(/get-sum.*expected number/s);

    const ghost = new McpTool({
      connection: toolset.connection,
      info: { name: 'no-such-tool', inputSchema: { type: 'object' } },
      name: 'no-such-tool',
    });
    const missing = await ghost.run({}, toolContext()).catch((e: unknown) => e);
    expect(McpToolNotFoundError.isInstance(missing)).toBe(true);
    expect(missing).toMatchObject({ code: 'MCP_TOOL_NOT_FOUND', toolName: 'no-such-tool' });
  });

  it('keeps one connection for all calls, concurrent ones included', async () => {
    const toolset = everything();
    const echo = await tool(toolset, 'echo');
    const pid = toolset.connection.pid!;
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => echo.run({ message: `m${i}` }, toolContext())),
    );
    expect(replies).toEqual(Array.from({ length: 20 }, (_, i) => ({ result: `Echo: m${i}` })));
    await toolset.getTools(toolContext());
    expect(toolset.connection.pid).toBe(pid);
  });

  it('times a call out, cancels it and keeps the connection usable', async () => {
    const toolset = everything({ timeoutMs: 300 });
    const slow = await tool(toolset, 'trigger-long-running-operation');
    const started = Date.now();
    const error = await slow
      .run({ duration: 10, steps: 5 }, toolContext())
      .catch((e: unknown) => e);
    expect(McpTimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'MCP_TIMEOUT', timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(8_000);
    const pid = toolset.connection.pid;
    expect(
      await (await tool(toolset, 'echo')).run({ message: 'still here' }, toolContext()),
    ).toEqual({
      result: 'Echo: still here',
    });
    expect(toolset.connection.pid).toBe(pid);
  });

  it("aborts an in-flight call with the run's signal", async () => {
    const toolset = everything();
    const slow = await tool(toolset, 'trigger-long-running-operation');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const started = Date.now();
    const error = await slow
      .run({ duration: 10, steps: 5 }, toolContext({ signal: controller.signal }))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MCP_REQUEST_FAILED' });
    expect((error as Error).message).toMatch(/aborted/);
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it('fails a call whose server crashes mid-call, then reconnects transparently', async () => {
    const toolset = everything();
    const slow = await tool(toolset, 'trigger-long-running-operation');
    const echo = await tool(toolset, 'echo');
    const firstPid = toolset.connection.pid!;
    const call = slow.run({ duration: 10, steps: 5 }, toolContext()).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 100));
    process.kill(firstPid, 'SIGKILL');
    const error = await call;
    expect(McpTransportClosedError.isInstance(error)).toBe(true);
    expect(await echo.run({ message: 'again' }, toolContext())).toEqual({ result: 'Echo: again' });
    const secondPid = toolset.connection.pid!;
    expect(secondPid).not.toBe(firstPid);
    expect(isAlive(secondPid)).toBe(true);
  });

  it('reconnects when the server died between calls', async () => {
    const toolset = everything();
    const echo = await tool(toolset, 'echo');
    const firstPid = toolset.connection.pid!;
    process.kill(firstPid, 'SIGKILL');
    await waitFor(() => !toolset.connection.isOpen);
    expect(await echo.run({ message: 'back' }, toolContext())).toEqual({ result: 'Echo: back' });
    expect(toolset.connection.pid).not.toBe(firstPid);
  });

  it('leaves no child process after close', async () => {
    const toolset = everything();
    await toolset.getTools(toolContext());
    const pid = toolset.connection.pid!;
    expect(isAlive(pid)).toBe(true);
    await toolset.close();
    await waitFor(() => !isAlive(pid));
    expect(toolset.connection.isOpen).toBe(false);
  });
});

describe('a stdio server and its parent process', () => {
  it('does not outlive a parent that exits without closing the toolset', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        fileURLToPath(new URL('./fixtures/exit-without-close.ts', import.meta.url)),
      ],
      { cwd: fileURLToPath(new URL('..', import.meta.url)) },
    );
    const pid = Number(stdout.trim());
    expect(pid).toBeGreaterThan(0);
    await waitFor(() => !isAlive(pid), 30_000);
  });
});

describe('McpToolset start failures', () => {
  it('names a command that does not exist', async () => {
    const toolset = new McpToolset({
      name: 'ghost',
      connection: { transport: 'stdio', command: 'adk-no-such-mcp-server' },
    });
    const error = await toolset.getTools(toolContext()).catch((e: unknown) => e);
    expect(McpServerStartError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('command "adk-no-such-mcp-server" was not found');
  });

  it("shows the server's stderr when it exits before the handshake", async () => {
    const toolset = new McpToolset({
      name: 'broken',
      connection: fixtureServer('exits-early.mjs'),
    });
    const error = await toolset.getTools(toolContext()).catch((e: unknown) => e);
    expect(McpServerStartError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ stderr: 'fatal: DATABASE_URL is not set' });
    expect((error as Error).message).toMatch(/broken.*\n[\s\S]*DATABASE_URL is not set/);
  });

  it('refuses a server speaking an unsupported protocol version', async () => {
    const toolset = new McpToolset({
      name: 'ancient',
      connection: fixtureServer('wrong-protocol.mjs'),
    });
    open.push(toolset);
    const error = await toolset.getTools(toolContext()).catch((e: unknown) => e);
    expect(McpProtocolVersionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('1999-01-01');
  });
});
