/**
 * Per-tool-call overhead of MCP over stdio: `@adk/mcp`'s McpToolset, `@google/adk` 2.0's
 * MCPToolset and the raw SDK `Client.callTool`, all calling `echo` of
 * `@modelcontextprotocol/server-everything` (a registry package) started with this Node.
 *
 * Ours and the raw SDK each keep one connection (one server process each) and alternate in blocks
 * of 10 calls, so both see the same machine load; this is repeated with fresh processes (3 times,
 * 1 with `--quick`) and the table quotes the median of the runs' quantiles, because on a loaded
 * machine one run's server process can be starved for a while. `@google/adk` opens a new client
 * (and server process) for every call, so it gets fewer calls (each costs a process start).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import type { ToolContext } from '@adk/core';
import { McpToolset, type McpTool } from '@adk/mcp';
import { MCPToolset } from '@google/adk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import type { BenchRow } from './report/row';
import { elapsedMs, median, quantile } from './stats';

/** Options of {@link runMcpBench}. */
export interface McpBenchOptions {
  quick?: boolean;
}

/** Raw per-call times, in milliseconds (one array per run for ours and the raw SDK). */
export interface McpBenchRaw {
  ours: number[][];
  rawSdk: number[][];
  googleAdk: number[];
}

// The package has no `main`: resolve its manifest and start its bin.
const everythingEntry = join(
  dirname(
    createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json'),
  ),
  'dist/index.js',
);
const serverParams = { command: process.execPath, args: [everythingEntry, 'stdio'] };
const BLOCK = 10;

const toolContext = {
  invocationId: 'bench',
  agentName: 'bench',
  appName: 'bench',
  userId: 'bench',
  sessionId: 'bench',
  branch: undefined,
  userContent: undefined,
  signal: new AbortController().signal,
  functionCallId: 'bench',
  toolConfirmation: undefined,
} as unknown as ToolContext;

async function timed(call: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await call();
  return elapsedMs(start);
}

async function measureOursAndRaw(calls: number): Promise<{ ours: number[]; rawSdk: number[] }> {
  const toolset = new McpToolset({
    name: 'everything',
    connection: { transport: 'stdio', ...serverParams },
    toolFilter: ['echo'],
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ ...serverParams, stderr: 'ignore' }));
  try {
    const [echo] = (await toolset.getTools(toolContext)) as McpTool[];
    if (!echo) throw new Error('server-everything has no echo tool');
    const ours = () => echo.run({ message: 'hello' }, toolContext);
    const raw = () => client.callTool({ name: 'echo', arguments: { message: 'hello' } });
    for (let i = 0; i < 50; i++) {
      await ours();
      await raw();
    }
    const times = { ours: [] as number[], rawSdk: [] as number[] };
    for (let done = 0; done < calls; done += BLOCK) {
      const first = (done / BLOCK) % 2 === 0;
      for (const side of first ? (['ours', 'rawSdk'] as const) : (['rawSdk', 'ours'] as const)) {
        for (let i = 0; i < BLOCK; i++) times[side].push(await timed(side === 'ours' ? ours : raw));
      }
    }
    return times;
  } finally {
    await Promise.all([toolset.close(), client.close()]);
  }
}

async function measureGoogleAdk(calls: number): Promise<number[]> {
  const toolset = new MCPToolset({ type: 'StdioConnectionParams', serverParams });
  try {
    const tools = await toolset.getTools();
    const echo = tools.find((tool) => tool.name === 'echo');
    if (!echo) throw new Error('@google/adk MCPToolset found no echo tool');
    const request = {
      args: { message: 'hello' },
      toolContext: { abortSignal: undefined },
    } as unknown as Parameters<typeof echo.runAsync>[0];
    await echo.runAsync(request);
    const times: number[] = [];
    for (let i = 0; i < calls; i++) times.push(await timed(() => echo.runAsync(request)));
    return times;
  } finally {
    await toolset.close();
  }
}

/** Run the MCP benchmark; rows for the table and the raw per-call times. */
export async function runMcpBench(
  options: McpBenchOptions = {},
): Promise<{ rows: BenchRow[]; raw: McpBenchRaw }> {
  const calls = options.quick ? 100 : 200;
  const runs = options.quick ? 1 : 3;
  const ours: number[][] = [];
  const rawSdk: number[][] = [];
  for (let run = 0; run < runs; run++) {
    const times = await measureOursAndRaw(calls);
    ours.push(times.ours);
    rawSdk.push(times.rawSdk);
  }
  const googleAdk = await measureGoogleAdk(options.quick ? 10 : 30);
  const across = (samples: number[][], q: number) => median(samples.map((run) => quantile(run, q)));
  const rows: BenchRow[] = [];
  for (const [q, name] of [
    [0.5, 'p50'],
    [0.95, 'p95'],
  ] as const) {
    rows.push({
      label: `MCP tool call over stdio (server-everything echo), ${name}`,
      unit: 'ms',
      ours: across(ours, q),
      theirs: quantile(googleAdk, q),
      better: 'lower',
      goal: { subject: 'ratio', op: '<=', target: 0.05 },
    });
  }
  for (const [q, name] of [
    [0.5, 'p50'],
    [0.95, 'p95'],
  ] as const) {
    rows.push({
      label: `MCP tool call over stdio vs the raw SDK Client.callTool (theirs = raw SDK), ${name}`,
      unit: 'ms',
      ours: across(ours, q),
      theirs: across(rawSdk, q),
      better: 'lower',
      goal: { subject: 'ratio', op: '<=', target: 1.5 },
    });
  }
  return { rows, raw: { ours, rawSdk, googleAdk } };
}
