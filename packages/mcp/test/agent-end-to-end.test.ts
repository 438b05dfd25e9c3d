import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  confirmationResponse,
  LlmAgent,
  REQUEST_CONFIRMATION_FUNCTION_NAME,
  Runner,
  subscribe,
  type ToolCallStartMessage,
  userContent,
  type Event,
} from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { startFakeOpenAI, type FakeProviderServer } from '@adk/fake-provider-servers';
import { createOpenAI } from '@adk/models-openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { McpToolset } from '../src';
import { everythingServer, filesystemServer, isAlive, waitFor } from './helpers/servers';

let sandbox: string;
let runner: Runner | undefined;
let provider: FakeProviderServer | undefined;
beforeEach(async () => {
  sandbox = await mkdtemp(join(tmpdir(), 'adk-mcp-sandbox-'));
});
afterEach(async () => {
  await runner?.close();
  runner = undefined;
  await provider?.close();
  provider = undefined;
  await rm(sandbox, { recursive: true, force: true });
});

async function collect(events: AsyncIterable<Event>): Promise<Event[]> {
  const all: Event[] = [];
  for await (const event of events) all.push(event);
  return all;
}

function responses(events: Event[]): Record<string, unknown>[] {
  return events.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) =>
      part.functionResponse ? [part.functionResponse.response] : [],
    ),
  );
}

describe('an agent using MCP tools', () => {
  it('writes and reads a file through server-filesystem, then runner.close stops the server', async () => {
    const files = new McpToolset({ name: 'files', connection: filesystemServer(sandbox) });
    const target = join(sandbox, 'note.txt');
    const model = new FakeModel({
      strict: true,
      responses: [
        {
          functionCalls: [
            { name: 'write_file', args: { path: target, content: 'hello from mcp' } },
          ],
        },
        { functionCalls: [{ name: 'read_text_file', args: { path: target } }] },
        { functionCalls: [{ name: 'read_text_file', args: { path: '/etc/passwd' } }] },
        'Done.',
      ],
    });
    const agent = new LlmAgent({ name: 'clerk', model, tools: [files] });
    runner = new Runner({ appName: 'mcp-e2e', agent, autoCreateSession: true });
    const events = await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('Write a note.') }),
    );
    expect(await readFile(target, 'utf8')).toBe('hello from mcp');
    const [written, read, outside] = responses(events);
    expect(written).toMatchObject({ result: expect.stringContaining('Successfully wrote') });
    expect(read).toMatchObject({ result: 'hello from mcp' });
    // The server refuses paths outside its root: the model gets the tool's error, the run goes on.
    expect(outside).toMatchObject({
      error: { code: 'MCP_TOOL_ERROR', message: expect.stringMatching(/outside|denied/i) },
    });
    expect(events.at(-1)?.content?.parts[0]?.text).toBe('Done.');
    // The model saw the server's tools with their schemas.
    const declared = model.requests[0]!.config?.tools?.flatMap((t) => t.functionDeclarations ?? []);
    expect(declared?.map((d) => d.name)).toContain('read_text_file');
    model.assertAllConsumed();

    const pid = files.connection.pid!;
    await runner.close();
    runner = undefined;
    await waitFor(() => !isAlive(pid));
  });

  it('asks a human before a tool that requires confirmation, and runs it once confirmed', async () => {
    const files = new McpToolset({
      name: 'files',
      connection: filesystemServer(sandbox),
      requireConfirmation: ['write_file'],
      toolFilter: ['write_file', 'read_text_file'],
    });
    const target = join(sandbox, 'approved.txt');
    const model = new FakeModel({
      responses: [
        { functionCalls: [{ name: 'write_file', args: { path: target, content: 'approved' } }] },
        'Written.',
      ],
    });
    const agent = new LlmAgent({ name: 'clerk', model, tools: [files] });
    runner = new Runner({ appName: 'mcp-e2e', agent, autoCreateSession: true });
    const paused = await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('Write it.') }),
    );
    const request = paused
      .flatMap((event) => event.content?.parts ?? [])
      .find((part) => part.functionCall?.name === REQUEST_CONFIRMATION_FUNCTION_NAME)?.functionCall;
    expect(request?.id).toBeDefined();
    await expect(readFile(target, 'utf8')).rejects.toThrow();

    const resumed = await collect(
      runner.run({
        userId: 'u',
        sessionId: 's',
        newMessage: confirmationResponse(request!.id!, true),
      }),
    );
    expect(await readFile(target, 'utf8')).toBe('approved');
    expect(resumed.at(-1)?.content?.parts[0]?.text).toBe('Written.');
  });

  it('runs against a provider wire format (fake OpenAI server) with server-everything', async () => {
    provider = await startFakeOpenAI({
      script: [
        { toolCalls: [{ name: 'demo_echo', args: { message: 'ping' } }] },
        { text: 'The server said: Echo: ping' },
      ],
    });
    const model = createOpenAI({ apiKey: 'test-key', baseURL: provider.baseURL })('gpt-4o');
    const demo = new McpToolset({
      name: 'everything',
      connection: everythingServer(),
      toolFilter: ['echo'],
      toolNamePrefix: 'demo',
    });
    const agent = new LlmAgent({ name: 'echoer', model, tools: [demo] });
    runner = new Runner({ appName: 'mcp-e2e', agent, autoCreateSession: true });
    const started: ToolCallStartMessage[] = [];
    const unsubscribe = subscribe('toolCallStart', (message) => void started.push(message));
    const events = await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('Echo ping.') }),
    ).finally(unsubscribe);
    // What @adk/telemetry puts on the tool span: the server's name and transport.
    expect(started.map((message) => message.toolAttributes)).toEqual([
      { 'mcp.server.name': 'everything', 'mcp.transport': 'stdio', 'mcp.tool.name': 'echo' },
    ]);
    expect(responses(events)).toEqual([{ result: 'Echo: ping' }]);
    expect(events.at(-1)?.content?.parts[0]?.text).toBe('The server said: Echo: ping');
    const firstRequest = provider.requests[0]!.body as { tools: { function: { name: string } }[] };
    expect(firstRequest.tools.map((t) => t.function.name)).toEqual(['demo_echo']);
    const secondRequest = JSON.stringify(provider.requests[1]!.body);
    expect(secondRequest).toContain('Echo: ping');
  });
});
