/**
 * `RemoteA2aAgent` continuing an input-required task on an `@a2a-js/sdk` 1.x server. Such a
 * server streams the stored task (still input-required) before the events of the answer: that
 * snapshot is not the end of the exchange.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { getText, InMemorySessionService, Runner, userContent } from '@adk/core';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
} from '@a2a-js/sdk/server';
import { Role, TaskState, type AgentCard } from '@a2a-js/sdk';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';

import { RemoteA2aAgent } from '../src';
import { userMessage } from './helpers';

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

/** An SDK 1.x server whose agent asks which city, then books it. */
async function startBookingServer(): Promise<{ url: string; executions: string[] }> {
  const executions: string[] = [];
  const executor: AgentExecutor = {
    async execute(request, bus) {
      const { taskId, contextId, userMessage: message } = request;
      const text = message.parts
        .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
        .join('');
      executions.push(text);
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
      // As the SDK's samples do: the task first, the stored one when the message continues it.
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
      status(TaskState.TASK_STATE_WORKING);
      if (!request.task) {
        status(TaskState.TASK_STATE_INPUT_REQUIRED, 'Which city?');
      } else {
        // An answer takes a moment: the stale question must not be taken for it meanwhile.
        await new Promise((resolve) => setTimeout(resolve, 50));
        status(TaskState.TASK_STATE_COMPLETED, `Booked: ${text}`);
      }
      bus.finished();
    },
    async cancelTask() {},
  };
  let url = '';
  const card = (): AgentCard => ({
    name: 'booking',
    description: 'Books a trip, asking where to first.',
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
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, executions };
}

async function turn(runner: Runner, text: string): Promise<string[]> {
  const said: string[] = [];
  for await (const event of runner.run({
    userId: 'u',
    sessionId: 's',
    newMessage: userContent(text),
  })) {
    if (event.partial) continue;
    said.push(
      event.errorCode ? `${event.errorCode}: ${event.errorMessage}` : getText(event.content),
    );
  }
  return said;
}

describe('RemoteA2aAgent and an input-required task of an @a2a-js/sdk 1.x server', () => {
  for (const streaming of [true, false]) {
    it(`reads the continuation to its end (${streaming ? 'streamed' : 'not streamed'})`, async () => {
      const sdk = await startBookingServer();
      const runner = new Runner({
        appName: 'travel',
        agent: new RemoteA2aAgent({ name: 'booking', agentCard: sdk.url, streaming }),
        sessionService: new InMemorySessionService({ packIdleSessionsAfterMs: false }),
        autoCreateSession: true,
      });
      closers.push(() => runner.close());
      expect(await turn(runner, 'book me a trip')).toEqual(['Which city?']);
      expect(await turn(runner, 'Paris')).toEqual(['Booked: Paris']);
      // The task is over: the next message starts a new one.
      expect(await turn(runner, 'and another')).toEqual(['Which city?']);
      expect(sdk.executions).toEqual(['book me a trip', 'Paris', 'and another']);
    });
  }
});
