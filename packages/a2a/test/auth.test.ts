import {
  getText,
  InMemoryCredentialService,
  InMemorySessionService,
  LlmAgent,
  Runner,
  userContent,
} from '@adk/core';
import { FakeModel, fakeFunctionCall } from '@adk/core/testing';
import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { afterEach, describe, expect, it } from 'vitest';

import { A2aClient, A2aTransportError, RemoteA2aAgent, type AgentCard, type Task } from '../src';
import { partsText, startEchoServer, userMessage } from './helpers';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const tokens: Record<string, string> = { 'alice-token': 'alice', 'bob-token': 'bob' };

async function securedServer() {
  const server = await startEchoServer({
    security: { bearer: (token) => tokens[token], apiKey: { key: 'service-key' } },
  });
  cleanups.push(() => server.close());
  return server;
}

describe('an A2A server that requires credentials', () => {
  it('publishes its schemes in a public card and refuses requests without a valid credential', async () => {
    const server = await securedServer();
    const card = (await (
      await fetch(`${server.url}/.well-known/agent-card.json`, {
        headers: { 'A2A-Version': '1.0' },
      })
    ).json()) as AgentCard;
    expect(Object.keys(card.securitySchemes)).toEqual(['bearer', 'apiKey']);
    expect(card.securityRequirements).toHaveLength(2);

    const anonymous = await A2aClient.fromUrl(server.url);
    const refused = await anonymous
      .sendMessage({ message: userMessage('hello') })
      .catch((caught: unknown) => caught);
    expect(A2aTransportError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ status: 401, retryable: false });
    const forged = await A2aClient.fromUrl(server.url, {
      headers: { authorization: 'Bearer mallory-token' },
    });
    await expect(forged.sendMessage({ message: userMessage('hello') })).rejects.toMatchObject({
      status: 401,
    });
    expect(server.model.requests).toHaveLength(0);
  });

  it('runs as the authenticated user, and each caller sees only their own tasks', async () => {
    const server = await securedServer();
    const alice = await A2aClient.fromUrl(server.url, {
      headers: { authorization: 'Bearer alice-token' },
    });
    const bob = await A2aClient.fromUrl(server.url, {
      headers: { authorization: 'Bearer bob-token' },
    });
    const task = (await alice.sendMessage({ message: userMessage('hello') })) as Task;
    expect(partsText(task.artifacts[0]?.parts)).toBe('echo #1: hello');
    const session = await server.sessionService.getSession({
      appName: 'echo',
      userId: 'alice',
      sessionId: task.contextId,
    });
    expect(session?.events).toHaveLength(2);
    expect((await alice.listTasks()).totalSize).toBe(1);
    expect((await bob.listTasks()).totalSize).toBe(0);
    await expect(bob.getTask(task.id)).rejects.toMatchObject({
      rpcCode: A2A_ERROR_CODE.TASK_NOT_FOUND,
    });
    const service = await A2aClient.fromUrl(server.url, {
      headers: { 'X-API-Key': 'service-key' },
    });
    const byKey = (await service.sendMessage({ message: userMessage('by key') })) as Task;
    expect(partsText(byKey.artifacts[0]?.parts)).toBe('echo #1: by key');
  });

  it('RemoteA2aAgent sends the user’s credential from the credential service', async () => {
    const server = await securedServer();
    const remote = new RemoteA2aAgent({
      name: 'remote_echo',
      agentCard: server.url,
      credentialKey: 'echo-service',
    });
    const credentialService = new InMemoryCredentialService();
    await credentialService.saveCredential({
      appName: 'local',
      userId: 'u1',
      credentialKey: 'echo-service',
      credential: {
        authType: 'http',
        http: { scheme: 'bearer', credentials: { token: 'alice-token' } },
      },
    });
    const runner = new Runner({
      appName: 'local',
      agent: new LlmAgent({
        name: 'router',
        model: new FakeModel({
          responses: () => fakeFunctionCall('transfer_to_agent', { agent_name: 'remote_echo' }),
        }),
        subAgents: [remote],
      }),
      sessionService: new InMemorySessionService({ packIdleSessionsAfterMs: false }),
      credentialService,
      autoCreateSession: true,
    });
    const last = async (userId: string) => {
      let final;
      for await (const event of runner.run({
        userId,
        sessionId: 's',
        newMessage: userContent('hi'),
      })) {
        if (!event.partial) final = event;
      }
      return final;
    };
    const answered = await last('u1');
    expect(getText(answered?.content)).toBe('echo #1: hi');
    // Another user has no credential stored: the remote refuses, as an error event.
    expect(await last('u2')).toMatchObject({ errorCode: 'A2A_TRANSPORT_ERROR' });
  });
});
