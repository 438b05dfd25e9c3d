/**
 * Interoperability with the reference JavaScript SDK of the protocol (`@a2a-js/sdk`): its client
 * against our server, and our client and `RemoteA2aAgent` against its server, over HTTP on
 * 127.0.0.1.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { getText, InMemorySessionService, LlmAgent, Runner, userContent } from '@adk/core';
import { FakeModel, fakeFunctionCall } from '@adk/core/testing';
import type { AgentCard } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import {
  DefaultRequestHandler,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  type AgentExecutor,
} from '@a2a-js/sdk/server';
import { afterEach, describe, expect, it } from 'vitest';

import { A2aClient, RemoteA2aAgent, type A2aTask } from '../src';
import { startEchoServer, userMessage } from './helpers';

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

describe('the @a2a-js/sdk client against our server', () => {
  it('sends, streams, reads and fails to cancel tasks with the SDK', async () => {
    const server = await startEchoServer();
    closers.push(() => server.close());
    const client = await new ClientFactory().createFromUrl(server.url);

    const task = (await client.sendMessage({ message: userMessage('hello') })) as A2aTask;
    expect(task.kind).toBe('task');
    expect(task.status.state).toBe('completed');
    expect(task.artifacts?.[0]?.parts).toEqual([{ kind: 'text', text: 'echo #1: hello' }]);

    const kinds: string[] = [];
    for await (const event of client.sendMessageStream({
      message: userMessage('again', { contextId: task.contextId }),
    })) {
      kinds.push(
        event.kind === 'status-update' ? `${event.kind}:${event.status.state}` : event.kind,
      );
    }
    expect(kinds).toEqual([
      'task',
      'status-update:working',
      'status-update:working',
      'artifact-update',
      'status-update:completed',
    ]);

    const read = await client.getTask({ id: task.id, historyLength: 1 });
    expect(read.history).toHaveLength(1);
    await expect(client.cancelTask({ id: task.id })).rejects.toThrow();
    await expect(client.getTask({ id: 'missing' })).rejects.toThrow();
  });
});

/** An `@a2a-js/sdk` server whose agent counts the messages of each context. */
async function startSdkServer(): Promise<{ url: string; contexts: Map<string, number> }> {
  const contexts = new Map<string, number>();
  const executor: AgentExecutor = {
    async execute(request, bus) {
      const { taskId, contextId, userMessage: message } = request;
      const turn = (contexts.get(contextId) ?? 0) + 1;
      contexts.set(contextId, turn);
      const text = message.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
      if (!request.task) {
        bus.publish({
          kind: 'task',
          id: taskId,
          contextId,
          status: { state: 'submitted' },
          history: [message],
        });
      }
      bus.publish({
        kind: 'status-update',
        taskId,
        contextId,
        final: false,
        status: {
          state: 'working',
          message: {
            kind: 'message',
            messageId: randomUUID(),
            role: 'agent',
            parts: [{ kind: 'text', text: 'thinking' }],
          },
        },
      });
      bus.publish({
        kind: 'artifact-update',
        taskId,
        contextId,
        artifact: {
          artifactId: 'answer',
          parts: [{ kind: 'text', text: `sdk #${turn}: ${text}` }],
        },
      });
      bus.publish({
        kind: 'status-update',
        taskId,
        contextId,
        final: true,
        status: { state: 'completed' },
      });
      bus.finished();
    },
    async cancelTask() {},
  };
  let url = '';
  const card = (): AgentCard => ({
    protocolVersion: '0.3.0',
    name: 'sdk_agent',
    description: 'An agent served by @a2a-js/sdk.',
    url: `${url}/`,
    version: '1.0.0',
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  });
  let handler: JsonRpcTransportHandler | undefined;
  const server: Server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/.well-known/agent-card.json') {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(card()));
      return;
    }
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      handler ??= new JsonRpcTransportHandler(
        new DefaultRequestHandler(card(), new InMemoryTaskStore(), executor),
      );
      void (async () => {
        const result = await handler.handle(JSON.parse(body));
        if (result && typeof result === 'object' && Symbol.asyncIterator in result) {
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          for await (const frame of result) response.write(`data: ${JSON.stringify(frame)}\n\n`);
          response.end();
        } else {
          response.setHeader('content-type', 'application/json');
          response.end(JSON.stringify(result));
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url, contexts };
}

describe('our client and RemoteA2aAgent against an @a2a-js/sdk server', () => {
  it('A2aClient sends and streams', async () => {
    const sdk = await startSdkServer();
    const client = await A2aClient.fromUrl(sdk.url);
    const task = (await client.sendMessage({ message: userMessage('hi') })) as A2aTask;
    expect(task.status.state).toBe('completed');
    expect(task.artifacts?.[0]?.parts).toEqual([{ kind: 'text', text: 'sdk #1: hi' }]);
    const kinds: string[] = [];
    for await (const event of client.streamMessage({
      message: userMessage('more', { contextId: task.contextId }),
    })) {
      kinds.push(event.kind);
    }
    expect(kinds).toEqual(['task', 'status-update', 'artifact-update', 'status-update']);
    expect(sdk.contexts.get(task.contextId)).toBe(2);
  });

  it('RemoteA2aAgent answers as a sub-agent and continues the remote context', async () => {
    const sdk = await startSdkServer();
    const remote = new RemoteA2aAgent({ name: 'remote_sdk', agentCard: sdk.url });
    const root = new LlmAgent({
      name: 'router',
      model: new FakeModel({
        responses: () => fakeFunctionCall('transfer_to_agent', { agent_name: 'remote_sdk' }),
      }),
      subAgents: [remote],
    });
    const runner = new Runner({
      appName: 'local',
      agent: root,
      sessionService: new InMemorySessionService({ packIdleSessionsAfterMs: false }),
      autoCreateSession: true,
    });
    const answers: string[] = [];
    for (const text of ['one', 'two']) {
      for await (const event of runner.run({
        userId: 'u',
        sessionId: 's',
        newMessage: userContent(text),
      })) {
        if (!event.partial && event.author === 'remote_sdk') answers.push(getText(event.content));
      }
    }
    expect(answers).toEqual(['sdk #1: one', 'sdk #2: two']);
    expect([...sdk.contexts.values()]).toEqual([2]);
  });
});
