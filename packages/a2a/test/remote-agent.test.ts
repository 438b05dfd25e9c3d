import {
  AgentTool,
  getText,
  InMemorySessionService,
  LlmAgent,
  Runner,
  userContent,
  type Content,
  type Event,
} from '@adk/core';
import { FakeModel, fakeFunctionCall } from '@adk/core/testing';
import { afterEach, describe, expect, it } from 'vitest';

import { A2aClient, RemoteA2aAgent, remoteStateKeys } from '../src';
import { startEchoServer } from './helpers';

let servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function remoteServer() {
  const server = await startEchoServer();
  servers.push(server);
  return server;
}

const transfer = () => fakeFunctionCall('transfer_to_agent', { agent_name: 'remote_echo' });

/** A local router whose fake model transfers every turn to the remote agent. */
function localTree(remote: RemoteA2aAgent) {
  const model = new FakeModel({ responses: () => transfer() });
  const root = new LlmAgent({
    name: 'router',
    model,
    instruction: 'Send everything to remote_echo.',
    subAgents: [remote],
  });
  const sessionService = new InMemorySessionService({ packIdleSessionsAfterMs: false });
  const runner = new Runner({
    appName: 'local',
    agent: root,
    sessionService,
    autoCreateSession: true,
  });
  return { runner, model, sessionService };
}

async function turn(runner: Runner, message: Content, signal?: AbortSignal): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({
    userId: 'u1',
    sessionId: 's1',
    newMessage: message,
    signal,
  })) {
    events.push(event);
  }
  return events;
}

function stored(events: Event[]): Event[] {
  return events.filter((event) => !event.partial);
}

describe('RemoteA2aAgent as a sub-agent', () => {
  it('answers through the remote server after a transfer, and keeps the remote conversation', async () => {
    const server = await remoteServer();
    const remote = new RemoteA2aAgent({
      name: 'remote_echo',
      description: 'Echoes.',
      agentCard: server.url,
    });
    const { runner, sessionService } = localTree(remote);

    const first = await turn(runner, userContent('hello'));
    const answer = stored(first).at(-1)!;
    expect(answer.author).toBe('remote_echo');
    expect(getText(answer.content)).toBe('echo #1: hello');
    expect(answer.errorCode).toBeUndefined();
    // Streamed progress arrives as partial events, their text marked as thought.
    const progress = first.filter((event) => event.partial);
    expect(progress.length).toBeGreaterThan(0);
    expect(
      progress.every((event) =>
        event.content?.parts.every((part) => part.text === undefined || part.thought),
      ),
    ).toBe(true);

    const session = await sessionService.getSession({
      appName: 'local',
      userId: 'u1',
      sessionId: 's1',
    });
    const keys = remoteStateKeys('remote_echo');
    const contextId = session?.state[keys.contextId];
    expect(contextId).toEqual(expect.any(String));
    expect(session?.state[keys.taskId]).toBeNull();
    expect(answer.customMetadata).toMatchObject({ 'a2a:context_id': contextId });

    // The second turn goes back through the router to the same remote conversation.
    const second = await turn(runner, userContent('again'));
    expect(getText(stored(second).at(-1)?.content)).toBe('echo #2: again');
    const remoteSession = await server.sessionService.getSession({
      appName: 'echo',
      userId: `A2A_USER_${String(contextId)}`,
      sessionId: String(contextId),
    });
    expect(
      remoteSession?.events
        .filter((event) => event.author === 'user')
        .map((event) => getText(event.content)),
    ).toEqual(['hello', 'again']);
  });

  it('works with message/send when streaming is off (no partial events)', async () => {
    const server = await remoteServer();
    const { card } = await A2aClient.fromUrl(server.url);
    const remote = new RemoteA2aAgent({ name: 'remote_echo', agentCard: card, streaming: false });
    expect(remote.description).toBe('Echoes what it is told.');
    const { runner } = localTree(remote);
    const events = await turn(runner, userContent('hello'));
    expect(events.some((event) => event.partial)).toBe(false);
    expect(getText(events.at(-1)?.content)).toBe('echo #1: hello');
  });

  it('relays a remote input-required call, and routes the user function response back to the task', async () => {
    const server = await remoteServer();
    const remote = new RemoteA2aAgent({ name: 'remote_echo', agentCard: server.url });
    const { runner, model, sessionService } = localTree(remote);

    const paused = stored(await turn(runner, userContent('approve'))).at(-1)!;
    expect(paused.author).toBe('remote_echo');
    expect(paused.content?.parts).toEqual([
      { functionCall: { id: 'approval-1', name: 'ask_approval', args: { amount: 42 } } },
    ]);
    expect(paused.longRunningToolIds).toEqual(['approval-1']);
    const keys = remoteStateKeys('remote_echo');
    const waiting = await sessionService.getSession({
      appName: 'local',
      userId: 'u1',
      sessionId: 's1',
    });
    const taskId = waiting?.state[keys.taskId];
    expect(taskId).toEqual(expect.any(String));

    const routerCalls = model.requests.length;
    const resumed = stored(
      await turn(runner, {
        role: 'user',
        parts: [
          {
            functionResponse: {
              id: 'approval-1',
              name: 'ask_approval',
              response: { approved: true },
            },
          },
        ],
      }),
    );
    // The router was not asked: the response went straight to the agent that made the call.
    expect(model.requests).toHaveLength(routerCalls);
    expect(resumed.map((event) => event.author)).toEqual(['remote_echo']);
    expect(getText(resumed[0]?.content)).toBe('approval: {"approved":true}');
    expect(resumed[0]?.customMetadata).toMatchObject({ 'a2a:task_id': taskId });
    const done = await sessionService.getSession({
      appName: 'local',
      userId: 'u1',
      sessionId: 's1',
    });
    expect(done?.state[keys.taskId]).toBeNull();
  });

  it('turns a failed remote task into an error event, and the run goes on', async () => {
    const server = await remoteServer();
    const remote = new RemoteA2aAgent({ name: 'remote_echo', agentCard: server.url });
    const { runner } = localTree(remote);
    const last = (await turn(runner, userContent('fail'))).at(-1)!;
    expect(last).toMatchObject({
      author: 'remote_echo',
      errorCode: 'A2A_TASK_FAILED',
      errorMessage: 'Remote A2A task failed: blocked by the fake model',
    });
    // The conversation is remembered even though the task failed.
    expect(getText((await turn(runner, userContent('after'))).at(-1)?.content)).toBe(
      'echo #2: after',
    );
  });

  it('turns an unreachable remote agent into error events, not exceptions', async () => {
    const server = await remoteServer();
    const { card } = await A2aClient.fromUrl(server.url);
    await server.close();
    servers = [];
    const byCard = new RemoteA2aAgent({ name: 'remote_echo', agentCard: card });
    const failed = (await turn(localTree(byCard).runner, userContent('hello'))).at(-1)!;
    expect(failed).toMatchObject({ author: 'remote_echo', errorCode: 'A2A_TRANSPORT_ERROR' });
    expect(failed.errorMessage).toContain('The A2A call failed');

    const byUrl = new RemoteA2aAgent({ name: 'remote_echo', agentCard: server.url });
    const noCard = (await turn(localTree(byUrl).runner, userContent('hello'))).at(-1)!;
    expect(noCard).toMatchObject({ author: 'remote_echo', errorCode: 'A2A_AGENT_CARD_INVALID' });
  });

  it('cancels the remote task when the local run is aborted', async () => {
    const server = await remoteServer();
    const remote = new RemoteA2aAgent({ name: 'remote_echo', agentCard: server.url });
    const { runner } = localTree(remote);
    const controller = new AbortController();
    const events: Event[] = [];
    for await (const event of runner.run({
      userId: 'u1',
      sessionId: 's1',
      newMessage: userContent('slow'),
      signal: controller.signal,
    })) {
      events.push(event);
      // Once the remote task is known here and its tool is running, stop the local run.
      if (
        event.author === 'remote_echo' &&
        event.content?.parts.some((part) => part.functionCall)
      ) {
        await server.slowGate.entered;
        controller.abort();
      }
    }
    // The remote tool sees its run aborted: tasks/cancel reached the server.
    await server.slowGate.aborted;
    expect(events.some((event) => event.author === 'remote_echo' && !event.partial)).toBe(false);
  });
});

describe('RemoteA2aAgent as a tool', () => {
  it('AgentTool calls the remote agent and hands its answer to the model', async () => {
    const server = await remoteServer();
    const remote = new RemoteA2aAgent({
      name: 'remote_echo',
      description: 'Echoes.',
      agentCard: server.url,
    });
    const model = new FakeModel({
      strict: true,
      responses: [
        fakeFunctionCall('remote_echo', { request: 'ping' }, 'tool-1'),
        'The remote said hi.',
      ],
    });
    const agent = new LlmAgent({ name: 'caller', model, tools: [new AgentTool(remote)] });
    const runner = new Runner({ appName: 'local', agent, autoCreateSession: true });
    const events = await turn(runner, userContent('use the tool'));
    expect(getText(events.at(-1)?.content)).toBe('The remote said hi.');
    const toolResult = model.requests[1]?.contents.at(-1)?.parts[0]?.functionResponse;
    expect(toolResult).toEqual({
      id: 'tool-1',
      name: 'remote_echo',
      response: { result: 'echo #1: ping' },
    });
    model.assertAllConsumed();
  });
});
