import { fileURLToPath } from 'node:url';

import type { ToolContext } from '@adk/core';

import type { StdioConnectionParams } from '../../src';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));

/** `@modelcontextprotocol/server-everything` over stdio, from the registry (a devDependency). */
export function everythingServer(): StdioConnectionParams {
  return {
    transport: 'stdio',
    command: process.execPath,
    args: [
      `${packageDir}node_modules/@modelcontextprotocol/server-everything/dist/index.js`,
      'stdio',
    ],
  };
}

/** `@modelcontextprotocol/server-filesystem` over stdio, allowed to touch `root` only. */
export function filesystemServer(root: string): StdioConnectionParams {
  return {
    transport: 'stdio',
    command: process.execPath,
    args: [`${packageDir}node_modules/@modelcontextprotocol/server-filesystem/dist/index.js`, root],
  };
}

/** A fixture script of test/fixtures, run with this Node. */
export function fixtureServer(name: string, args: string[] = []): StdioConnectionParams {
  return {
    transport: 'stdio',
    command: process.execPath,
    args: [fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url)), ...args],
  };
}

/** The parts of a tool context an MCP tool reads, for calling a tool directly. */
export function toolContext(
  options: { signal?: AbortSignal; confirmed?: boolean } = {},
): ToolContext & { confirmationsRequested: unknown[] } {
  const confirmationsRequested: unknown[] = [];
  return {
    invocationId: 'inv',
    agentName: 'agent',
    appName: 'app',
    userId: 'user',
    sessionId: 'session',
    branch: undefined,
    userContent: undefined,
    signal: options.signal ?? new AbortController().signal,
    functionCallId: 'call-1',
    toolConfirmation:
      options.confirmed === undefined ? undefined : { confirmed: options.confirmed },
    requestConfirmation: (request: unknown) => void confirmationsRequested.push(request),
    confirmationsRequested,
  } as unknown as ToolContext & { confirmationsRequested: unknown[] };
}

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Wait until `check` holds, or fail after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
