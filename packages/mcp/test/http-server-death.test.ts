import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { InvalidArgumentError } from '@adk/core';
import { afterEach, describe, expect, it } from 'vitest';

import { McpServerStartError, McpTool, McpToolset, McpTransportClosedError } from '../src';
import { toolContext, waitFor } from './helpers/servers';

const SERVER = fileURLToPath(new URL('./fixtures/http-server.mjs', import.meta.url));

interface Child {
  process: ChildProcess;
  url: string;
  lines: string[];
}

const children: ChildProcess[] = [];
const toolsets: McpToolset[] = [];
afterEach(async () => {
  await Promise.all(toolsets.splice(0).map((toolset) => toolset.close()));
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
});

/** The SDK's Streamable HTTP server in a child process (SSE answers, or JSON with `--json`). */
async function startServer(args: string[] = []): Promise<Child> {
  const child = spawn(process.execPath, [SERVER, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const lines: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));
  await waitFor(() => lines.some((line) => line.startsWith('listening ')), 30_000);
  const port = lines.find((line) => line.startsWith('listening '))!.split(' ')[1];
  return { process: child, url: `http://127.0.0.1:${port}/mcp`, lines };
}

async function slowTool(url: string): Promise<McpTool> {
  const toolset = new McpToolset({
    name: 'killable',
    connection: { transport: 'streamable-http', url },
    // Long enough that a call ending by its timeout cannot pass for the server's death.
    timeoutMs: 120_000,
  });
  toolsets.push(toolset);
  const tool = (await toolset.getTools(toolContext()))[0];
  if (!(tool instanceof McpTool)) throw new Error('no slow tool');
  return tool;
}

describe('a Streamable HTTP server that dies during a call', () => {
  for (const mode of ['sse', 'json'] as const) {
    it(`fails the call at once with McpTransportClosedError (${mode} answers)`, async () => {
      const server = await startServer(mode === 'json' ? ['--json'] : []);
      const slow = await slowTool(server.url);
      const call = slow.run({ name: 'x', ms: 600_000 }, toolContext()).catch((e: unknown) => e);
      await waitFor(() => server.lines.includes('started x'), 30_000);
      const killedAt = Date.now();
      server.process.kill('SIGKILL');
      const error = await call;
      const elapsed = Date.now() - killedAt;
      expect(McpTransportClosedError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain('"killable"');
      // Far below the call's 120 s timeout: the error comes from the closed connection.
      expect(elapsed).toBeLessThan(30_000);

      // The next call does not wait either: the server is gone, and that is what it says.
      const next = await slow.run({ name: 'y', ms: 1 }, toolContext()).catch((e: unknown) => e);
      expect(McpServerStartError.isInstance(next)).toBe(true);

      // A server started again on another port is not this one; on the same URL it would be
      // reached again by the next call (covered by the session-expiry test).
    }, 120_000);
  }
});

describe('connection settings', () => {
  it('refuses a connection without transport as an argument error, when the toolset is built', () => {
    const build = () => new McpToolset({ connection: { url: 'http://127.0.0.1:1/mcp' } as never });
    expect(build).toThrow(/transport/);
    const error = (() => {
      try {
        build();
      } catch (e) {
        return e;
      }
    })();
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
  });

  it('refuses a URL that does not parse, and a stdio connection without command', () => {
    const invalid = (connection: unknown): unknown => {
      try {
        new McpToolset({ name: 'x', connection: connection as never });
      } catch (e) {
        return e;
      }
      return undefined;
    };
    expect(InvalidArgumentError.isInstance(invalid({ transport: 'sse', url: 'not a url' }))).toBe(
      true,
    );
    expect(
      InvalidArgumentError.isInstance(invalid({ transport: 'streamable-http', url: 'ftp://x/' })),
    ).toBe(true);
    expect(InvalidArgumentError.isInstance(invalid({ transport: 'stdio' }))).toBe(true);
    expect(
      InvalidArgumentError.isInstance(invalid({ transport: 'websocket', url: 'ws://x' })),
    ).toBe(true);
  });
});
