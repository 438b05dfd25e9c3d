/**
 * Interoperability with the official JavaScript SDK of the protocol, both directions, on both
 * protocol versions: `@a2a-js/sdk` 1.x (A2A 1.0) and 0.3.14 (A2A 0.3, installed as
 * `a2a-sdk-v03`). Its clients against our server, and our client and `RemoteA2aAgent` against its
 * servers, over HTTP on 127.0.0.1.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { getText, InMemorySessionService, LlmAgent, Runner, userContent } from '@adk/core';
import { FakeModel, fakeFunctionCall } from '@adk/core/testing';
import { Role, TaskState, type AgentCard } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { A2AClient as LegacyClient } from 'a2a-sdk-v03/client';
import {
  DefaultRequestHandler as LegacyRequestHandler,
  InMemoryTaskStore as LegacyTaskStore,
  JsonRpcTransportHandler as LegacyJsonRpcHandler,
  type AgentExecutor as LegacyExecutor,
} from 'a2a-sdk-v03/server';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';

import { A2aClient, RemoteA2aAgent, type Task } from '../src';
import { partsText, startEchoServer, userMessage } from './helpers';

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

async function serveNode(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the @a2a-js/sdk 1.x client against our server (A2A 1.0)', () => {
  it.each(['JSONRPC', 'HTTP+JSON'])(
    'sends, streams, reads and lists over %s',
    async (transport) => {
      const server = await startEchoServer();
      closers.push(() => server.close());
      const client = await new ClientFactory(
        ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
          preferredTransports: [transport],
        }),
      ).createFromUrl(server.url);
      expect(client.protocolVersion).toBe('1.0');

      const task = (await client.sendMessage({
        tenant: '',
        message: userMessage('hello'),
        configuration: undefined,
        metadata: undefined,
      })) as Task;
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(partsText(task.artifacts[0]?.parts)).toBe('echo #1: hello');

      const cases: string[] = [];
      for await (const event of client.sendMessageStream({
        tenant: '',
        message: userMessage('again', { contextId: task.contextId }),
        configuration: undefined,
        metadata: undefined,
      })) {
        const payload = event.payload;
        cases.push(
          payload?.$case === 'statusUpdate'
            ? `status:${TaskState[payload.value.status!.state]}`
            : String(payload?.$case),
        );
      }
      expect(cases).toEqual([
        'task',
        'status:TASK_STATE_WORKING',
        'status:TASK_STATE_WORKING',
        'artifactUpdate',
        'status:TASK_STATE_COMPLETED',
      ]);

      const read = await client.getTask({ tenant: '', id: task.id, historyLength: 1 });
      expect(read.history).toHaveLength(1);
      const listed = await client.listTasks({
        tenant: '',
        contextId: task.contextId,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageToken: '',
        statusTimestampAfter: undefined,
      });
      expect(listed.tasks).toHaveLength(2);
      await expect(
        client.cancelTask({ tenant: '', id: task.id, metadata: undefined }),
      ).rejects.toThrow();
      await expect(client.getTask({ tenant: '', id: 'missing' })).rejects.toThrow();
    },
  );
});

describe('the @a2a-js/sdk 0.3 client against our server (A2A 0.3)', () => {
  it('sends, streams, reads and fails to cancel finished tasks with the 0.3 wire format', async () => {
    const server = await startEchoServer();
    closers.push(() => server.close());
    const client = await LegacyClient.fromCardUrl(`${server.url}/.well-known/agent-card.json`);
    const message = (text: string, contextId?: string) => ({
      kind: 'message' as const,
      messageId: randomUUID(),
      role: 'user' as const,
      parts: [{ kind: 'text' as const, text }],
      ...(contextId ? { contextId } : {}),
    });

    const sent = await client.sendMessage({ message: message('hello') });
    expect('result' in sent).toBe(true);
    const task = (
      sent as {
        result: {
          kind: string;
          id: string;
          contextId: string;
          status: { state: string };
          artifacts?: { parts: unknown[] }[];
        };
      }
    ).result;
    expect(task.kind).toBe('task');
    expect(task.status.state).toBe('completed');
    expect(task.artifacts?.[0]?.parts).toEqual([{ kind: 'text', text: 'echo #1: hello' }]);

    const kinds: string[] = [];
    for await (const event of client.sendMessageStream({
      message: message('again', task.contextId),
    })) {
      const value = event as { kind: string; status?: { state: string } };
      kinds.push(
        value.kind === 'status-update' ? `${value.kind}:${value.status?.state}` : value.kind,
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
    expect('result' in read && read.result.history).toHaveLength(1);
    const cancel = await client.cancelTask({ id: task.id });
    expect('error' in cancel && cancel.error.code).toBe(-32002);
    const missing = await client.getTask({ id: 'missing' });
    expect('error' in missing && missing.error.code).toBe(-32001);
  });
});

/** An @a2a-js/sdk 1.x server whose agent counts the messages of each context. */
async function startSdkServer(): Promise<{ url: string; contexts: Map<string, number> }> {
  const contexts = new Map<string, number>();
  const executor: AgentExecutor = {
    async execute(request, bus) {
      const { taskId, contextId, userMessage: message } = request;
      const turn = (contexts.get(contextId) ?? 0) + 1;
      contexts.set(contextId, turn);
      const text = partsText(message.parts);
      const status = (state: TaskState, said?: string) =>
        bus.publish(
          AgentEvent.statusUpdate({
            taskId,
            contextId,
            metadata: undefined,
            status: {
              state,
              timestamp: new Date().toISOString(),
              message:
                said === undefined
                  ? undefined
                  : userMessage(said, { role: Role.ROLE_AGENT, taskId, contextId }),
            },
          }),
        );
      bus.publish(
        AgentEvent.task(
          request.task ?? {
            id: taskId,
            contextId,
            status: {
              state: TaskState.TASK_STATE_SUBMITTED,
              message: undefined,
              timestamp: undefined,
            },
            artifacts: [],
            history: [message],
            metadata: undefined,
          },
        ),
      );
      status(TaskState.TASK_STATE_WORKING, 'thinking');
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          append: false,
          lastChunk: true,
          metadata: undefined,
          artifact: {
            artifactId: 'answer',
            name: 'answer',
            description: '',
            metadata: undefined,
            extensions: [],
            parts: userMessage(`sdk #${turn}: ${text}`).parts,
          },
        }),
      );
      status(TaskState.TASK_STATE_COMPLETED);
      bus.finished();
    },
    async cancelTask() {},
  };
  let url = '';
  const card = (): AgentCard => ({
    name: 'sdk_agent',
    description: 'An agent served by @a2a-js/sdk 1.x.',
    supportedInterfaces: [
      { url: `${url}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
    ],
    provider: undefined,
    version: '1.0.0',
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [],
      extendedAgentCard: false,
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    signatures: [],
  });
  const app = express();
  const requestHandler = new DefaultRequestHandler(card(), new InMemoryTaskStore(), executor);
  app.use(
    '/.well-known/agent-card.json',
    agentCardHandler({ agentCardProvider: async () => card() }),
  );
  app.use('/rpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  url = await serveNode(createServer(app));
  return { url, contexts };
}

/** An @a2a-js/sdk 0.3.14 server (A2A 0.3 only) whose agent counts the messages of each context. */
async function startLegacySdkServer(): Promise<{ url: string; contexts: Map<string, number> }> {
  const contexts = new Map<string, number>();
  const executor: LegacyExecutor = {
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
        kind: 'artifact-update',
        taskId,
        contextId,
        artifact: {
          artifactId: 'answer',
          parts: [{ kind: 'text', text: `legacy #${turn}: ${text}` }],
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
  const card = () => ({
    protocolVersion: '0.3.0',
    name: 'legacy_agent',
    description: 'An agent served by @a2a-js/sdk 0.3.',
    url: `${url}/`,
    version: '1.0.0',
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  });
  let handler: LegacyJsonRpcHandler | undefined;
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/.well-known/agent-card.json') {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(card()));
      return;
    }
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      handler ??= new LegacyJsonRpcHandler(
        new LegacyRequestHandler(card(), new LegacyTaskStore(), executor),
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
  url = await serveNode(server);
  return { url, contexts };
}

function routerWith(remote: RemoteA2aAgent): Runner {
  const root = new LlmAgent({
    name: 'router',
    model: new FakeModel({
      responses: () => fakeFunctionCall('transfer_to_agent', { agent_name: remote.name }),
    }),
    subAgents: [remote],
  });
  return new Runner({
    appName: 'local',
    agent: root,
    sessionService: new InMemorySessionService({ packIdleSessionsAfterMs: false }),
    autoCreateSession: true,
  });
}

async function answers(runner: Runner, author: string, texts: string[]): Promise<string[]> {
  const said: string[] = [];
  for (const text of texts) {
    for await (const event of runner.run({
      userId: 'u',
      sessionId: 's',
      newMessage: userContent(text),
    })) {
      if (!event.partial && event.author === author) said.push(getText(event.content));
    }
  }
  return said;
}

describe.each([
  ['1.x (A2A 1.0)', startSdkServer, 'sdk', '1.0'],
  ['0.3 (A2A 0.3)', startLegacySdkServer, 'legacy', '0.3'],
] as const)(
  'our client and RemoteA2aAgent against an @a2a-js/sdk %s server',
  (_, start, prefix, version) => {
    it('A2aClient sends and streams, in the server’s protocol version', async () => {
      const sdk = await start();
      const client = await A2aClient.fromUrl(sdk.url);
      expect(client.protocolVersion).toBe(version);
      const task = (await client.sendMessage({ message: userMessage('hi') })) as Task;
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(partsText(task.artifacts[0]?.parts)).toBe(`${prefix} #1: hi`);
      const cases: string[] = [];
      for await (const event of client.streamMessage({
        message: userMessage('more', { contextId: task.contextId }),
      })) {
        cases.push(String(event.payload?.$case));
      }
      expect(cases[0]).toBe('task');
      expect(cases.at(-1)).toBe('statusUpdate');
      expect(cases).toContain('artifactUpdate');
      expect(sdk.contexts.get(task.contextId)).toBe(2);
    });

    it('RemoteA2aAgent answers as a sub-agent and continues the remote context', async () => {
      const sdk = await start();
      const remote = new RemoteA2aAgent({ name: 'remote_sdk', agentCard: sdk.url });
      expect(await answers(routerWith(remote), 'remote_sdk', ['one', 'two'])).toEqual([
        `${prefix} #1: one`,
        `${prefix} #2: two`,
      ]);
      expect([...sdk.contexts.values()]).toEqual([2]);
    });
  },
);
