import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { afterEach, describe, expect, it } from 'vitest';

import {
  A2aClient,
  A2aRpcError,
  A2aTransportError,
  AgentCardError,
  TaskState,
  type Message,
  type A2aPart as Part,
  type StreamResponse,
  type Task,
} from '../src';
import { partsText, postJson, startEchoServer, userMessage } from './helpers';

let servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function setup(transport: 'JSONRPC' | 'HTTP+JSON' = 'JSONRPC') {
  const server = await startEchoServer();
  servers.push(server);
  const client = await A2aClient.fromUrl(server.url, { preferredTransports: [transport] });
  return { server, client };
}

function answerText(task: Task): string {
  return partsText(task.artifacts[0]?.parts);
}

function asTask(result: Message | Task): Task {
  expect('messageId' in result).toBe(false);
  return result as Task;
}

async function collect(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function dataPart(data: Record<string, unknown>, metadata: Record<string, unknown>): Part {
  return { content: { $case: 'data', value: data }, metadata, filename: '', mediaType: '' };
}

describe('agent card', () => {
  it('is the A2A 1.0 card for 1.0 clients and the 0.3 card for the others, at both paths', async () => {
    const { server } = await setup();
    const card = (await (
      await fetch(`${server.url}/.well-known/agent-card.json`, {
        headers: { 'A2A-Version': '1.0' },
      })
    ).json()) as { skills: { id: string }[] };
    expect(card).toMatchObject({
      name: 'echo',
      description: 'Echoes what it is told.',
      capabilities: { streaming: true, pushNotifications: false },
      supportedInterfaces: [
        { url: `${server.url}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: `${server.url}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        { url: `${server.url}/`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
        { url: `${server.url}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
      ],
    });
    expect(card.skills.map((skill: { id: string }) => skill.id)).toEqual([
      'echo',
      'echo.slow',
      'echo.ask_approval',
      'echo.pay',
    ]);
    // A 0.3 client sends no A2A-Version: it reads the card it knows (url, protocolVersion).
    for (const path of ['/.well-known/agent-card.json', '/.well-known/agent.json']) {
      const legacy = await (await fetch(`${server.url}${path}`)).json();
      expect(legacy).toMatchObject({
        name: 'echo',
        url: `${server.url}/`,
        protocolVersion: '0.3',
        preferredTransport: 'JSONRPC',
      });
    }
  });

  it('takes overrides; an unreachable card is an AgentCardError', async () => {
    const server = await startEchoServer({ agentCard: { version: '2.0.0' } });
    servers.push(server);
    const client = await A2aClient.fromUrl(server.url);
    expect(client.card.version).toBe('2.0.0');
    expect(client.protocolVersion).toBe('1.0');
    await expect(A2aClient.fromUrl(`${server.url}/nothing-here/`)).rejects.toSatisfy(
      AgentCardError.isInstance,
    );
  });
});

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('message/send over %s', (transport) => {
  it('runs one turn and returns the completed task with the answer as an artifact', async () => {
    const { client } = await setup(transport);
    const task = asTask(await client.sendMessage({ message: userMessage('hello') }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerText(task)).toBe('echo #1: hello');
    expect(task.history[0]).toMatchObject({ taskId: task.id, contextId: task.contextId });
    expect(task.contextId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('continues the same ADK session when the contextId is sent again', async () => {
    const { client, server } = await setup(transport);
    const first = asTask(await client.sendMessage({ message: userMessage('hello') }));
    const second = asTask(
      await client.sendMessage({ message: userMessage('again', { contextId: first.contextId }) }),
    );
    expect(second.id).not.toBe(first.id);
    expect(second.contextId).toBe(first.contextId);
    expect(answerText(second)).toBe('echo #2: again');
    const session = await server.sessionService.getSession({
      appName: 'echo',
      userId: `A2A_USER_${first.contextId}`,
      sessionId: first.contextId,
    });
    expect(session?.events.filter((event) => event.author === 'user')).toHaveLength(2);
    const other = asTask(await client.sendMessage({ message: userMessage('fresh') }));
    expect(answerText(other)).toBe('echo #1: fresh');
  });

  it('reports an agent error event as a failed task with the error code', async () => {
    const { client } = await setup(transport);
    const task = asTask(await client.sendMessage({ message: userMessage('fail') }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(partsText(task.status?.message?.parts)).toBe('blocked by the fake model');
    expect(task.status?.message?.metadata).toEqual({ adk_error_code: 'SAFETY' });
    expect(task.artifacts).toEqual([]);
  });

  it('pauses on a long-running call as input-required; the function response resumes the task', async () => {
    const { client } = await setup(transport);
    const paused = asTask(await client.sendMessage({ message: userMessage('approve') }));
    expect(paused.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(paused.status?.message?.parts).toMatchObject([
      {
        content: {
          $case: 'data',
          value: { id: 'approval-1', name: 'ask_approval', args: { amount: 42 } },
        },
        metadata: { adk_type: 'function_call', adk_is_long_running: true },
      },
    ]);
    const resumed = asTask(
      await client.sendMessage({
        message: userMessage('unused', {
          taskId: paused.id,
          contextId: paused.contextId,
          parts: [
            dataPart(
              { id: 'approval-1', name: 'ask_approval', response: { approved: true } },
              { adk_type: 'function_response' },
            ),
          ],
        }),
      }),
    );
    expect(resumed.id).toBe(paused.id);
    expect(resumed.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerText(resumed)).toBe('approval: {"approved":true}');
  });

  it('carries files and data parts to the agent and back', async () => {
    const { client, server } = await setup(transport);
    const image = Buffer.from([137, 80, 78, 71, 1, 2, 3]);
    await client.sendMessage({
      message: userMessage('look', {
        parts: [
          {
            content: { $case: 'text', value: 'look' },
            metadata: undefined,
            filename: '',
            mediaType: '',
          },
          {
            content: { $case: 'raw', value: image },
            metadata: undefined,
            filename: 'dot.png',
            mediaType: 'image/png',
          },
          {
            content: { $case: 'url', value: 'https://example.com/a.pdf' },
            metadata: undefined,
            filename: 'a.pdf',
            mediaType: 'application/pdf',
          },
          dataPart({ order: 42 }, {}),
        ],
      }),
    });
    const parts = server.model.requests[0]!.contents.at(-1)!.parts;
    expect(parts).toEqual([
      { text: 'look' },
      {
        inlineData: {
          mimeType: 'image/png',
          data: image.toString('base64'),
          displayName: 'dot.png',
        },
      },
      {
        fileData: {
          fileUri: 'https://example.com/a.pdf',
          mimeType: 'application/pdf',
          displayName: 'a.pdf',
        },
      },
      { text: '{"order":42}' },
    ]);
  });
});

describe('human confirmation over A2A', () => {
  it('asks for a tool confirmation as input-required; the answer runs the tool', async () => {
    const { client, server } = await setup();
    const paused = asTask(await client.sendMessage({ message: userMessage('pay') }));
    expect(paused.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const request = paused.status?.message?.parts[0];
    expect(request).toMatchObject({
      content: {
        $case: 'data',
        value: {
          name: 'adk_request_confirmation',
          args: { originalFunctionCall: { id: 'pay-1', name: 'pay', args: { amount: 5 } } },
        },
      },
      metadata: { adk_type: 'function_call', adk_is_long_running: true },
    });
    const callId = (request?.content?.value as { id: string }).id;
    const done = asTask(
      await client.sendMessage({
        message: userMessage('unused', {
          taskId: paused.id,
          contextId: paused.contextId,
          parts: [
            dataPart(
              { id: callId, name: 'adk_request_confirmation', response: { confirmed: true } },
              { adk_type: 'function_response' },
            ),
          ],
        }),
      }),
    );
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerText(done)).toBe('paid: {"paid":5}');
    expect(server.model.requests).toHaveLength(2);
  });
});

describe('message/stream', () => {
  it('streams the task, working updates with each event, the answer artifact, then completed', async () => {
    const { client } = await setup();
    const events = await collect(client.streamMessage({ message: userMessage('hi') }));
    expect(
      events.map((event) =>
        event.payload?.$case === 'statusUpdate'
          ? `status:${TaskState[event.payload.value.status!.state]}`
          : event.payload?.$case,
      ),
    ).toEqual([
      'task',
      'status:TASK_STATE_WORKING',
      'status:TASK_STATE_WORKING',
      'artifactUpdate',
      'status:TASK_STATE_COMPLETED',
    ]);
    const update = events[2]!.payload;
    expect(update?.$case === 'statusUpdate' && partsText(update.value.status?.message?.parts)).toBe(
      'echo #1: hi',
    );
    const artifact = events[3]!.payload;
    expect(artifact?.$case === 'artifactUpdate' && artifact.value.lastChunk).toBe(true);
  });

  it('cancels a running task: the stream ends canceled and the tool saw the abort', async () => {
    const { client, server } = await setup();
    const stream = client.streamMessage({ message: userMessage('slow') });
    const first = await stream.next();
    const payload = (first.value as StreamResponse).payload;
    const taskId = payload?.$case === 'task' ? payload.value.id : '';
    await server.slowGate.entered;
    const canceled = await client.cancelTask(taskId);
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const rest = await collect({ [Symbol.asyncIterator]: () => stream });
    const last = rest.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );
    expect((await client.getTask(taskId)).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await server.slowGate.aborted;
    expect(server.model.requests).toHaveLength(1);
  });

  it('returns at once with returnImmediately; tasks/subscribe follows the task to its end', async () => {
    const { client, server } = await setup();
    const started = asTask(
      await client.sendMessage({
        message: userMessage('slow'),
        configuration: { returnImmediately: true },
      }),
    );
    expect([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]).toContain(
      started.status?.state,
    );
    const stream = client.resubscribe(started.id);
    await server.slowGate.entered;
    // Subscribed (the first event is the task as it stands) before the tool may finish.
    const first = await stream.next();
    expect((first.value as StreamResponse).payload?.$case).toBe('task');
    server.slowGate.open();
    const events = await collect({ [Symbol.asyncIterator]: () => stream });
    const last = events.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
    expect(answerText(await client.getTask(started.id))).toBe('slow done');
  });
});

describe('tasks/list', () => {
  it('pages through the caller’s tasks, newest first, filtered by context', async () => {
    const { client } = await setup();
    const first = asTask(await client.sendMessage({ message: userMessage('one') }));
    await client.sendMessage({ message: userMessage('two', { contextId: first.contextId }) });
    await client.sendMessage({ message: userMessage('three') });
    const page1 = await client.listTasks({ pageSize: 2 });
    expect(page1.totalSize).toBe(3);
    expect(page1.tasks).toHaveLength(2);
    expect(page1.nextPageToken).not.toBe('');
    const page2 = await client.listTasks({ pageSize: 2, pageToken: page1.nextPageToken });
    expect(page2.tasks).toHaveLength(1);
    expect(page2.nextPageToken).toBe('');
    const ids = [...page1.tasks, ...page2.tasks].map((task) => task.id);
    expect(new Set(ids).size).toBe(3);
    const inContext = await client.listTasks({ contextId: first.contextId });
    expect(inContext.tasks.map((task) => task.contextId)).toEqual([
      first.contextId,
      first.contextId,
    ]);
  });

  it('forgets the oldest tasks past maxTasks', async () => {
    const server = await startEchoServer({ maxTasks: 2 });
    servers.push(server);
    const client = await A2aClient.fromUrl(server.url);
    const oldest = asTask(await client.sendMessage({ message: userMessage('a') }));
    await client.sendMessage({ message: userMessage('b') });
    await client.sendMessage({ message: userMessage('c') });
    expect((await client.listTasks()).totalSize).toBe(2);
    await expect(client.getTask(oldest.id)).rejects.toMatchObject({
      rpcCode: A2A_ERROR_CODE.TASK_NOT_FOUND,
    });
  });
});

describe('errors', () => {
  it('answers unknown tasks and finished tasks with the spec codes', async () => {
    const { client } = await setup();
    await expect(client.getTask('nope')).rejects.toMatchObject({
      name: 'A2aRpcError',
      rpcCode: A2A_ERROR_CODE.TASK_NOT_FOUND,
    });
    await expect(client.cancelTask('nope')).rejects.toMatchObject({
      rpcCode: A2A_ERROR_CODE.TASK_NOT_FOUND,
    });
    const done = asTask(await client.sendMessage({ message: userMessage('hello') }));
    await expect(client.cancelTask(done.id)).rejects.toMatchObject({
      rpcCode: A2A_ERROR_CODE.TASK_NOT_CANCELABLE,
    });
    const error = await client
      .sendMessage({ message: userMessage('more', { taskId: done.id, contextId: done.contextId }) })
      .catch((caught: unknown) => caught);
    expect(A2aRpcError.isInstance(error)).toBe(true);
  });

  it('refuses a body over maxBodyBytes with HTTP 413 before any run', async () => {
    const server = await startEchoServer({ maxBodyBytes: 1024 });
    servers.push(server);
    const response = await postJson(`${server.url}/`, {
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x'.repeat(2048) }] },
      },
    });
    expect(response.status).toBe(413);
    expect(server.model.requests).toHaveLength(0);
  });

  it('answers malformed JSON-RPC with parse, invalid-request and method-not-found errors', async () => {
    const { server } = await setup();
    const url = `${server.url}/`;
    const headers = { 'content-type': 'application/json', 'A2A-Version': '1.0' };
    const post = async (body: string) =>
      (await fetch(url, { method: 'POST', headers, body })).json() as Promise<{
        error?: { code: number };
      }>;
    expect((await post('{not json')).error?.code).toBe(A2A_ERROR_CODE.PARSE_ERROR);
    // Not JSON-RPC 2.0 (no `jsonrpc`): refused, whichever of the two codes the SDK picks.
    expect([A2A_ERROR_CODE.INVALID_REQUEST, A2A_ERROR_CODE.INVALID_PARAMS]).toContain(
      (await post(JSON.stringify({ id: 1, method: 'GetTask' }))).error?.code,
    );
    expect(
      (await post(JSON.stringify({ jsonrpc: '2.0', id: 'x', method: 'Frobnicate', params: {} })))
        .error?.code,
    ).toBe(A2A_ERROR_CODE.METHOD_NOT_FOUND);
  });

  it('turns a refused connection into a retryable A2aTransportError', async () => {
    const { server, client } = await setup();
    await server.close();
    servers = [];
    const error = await client.getTask('x').catch((caught: unknown) => caught);
    expect(A2aTransportError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'A2A_TRANSPORT_ERROR', retryable: true });
    await expect(A2aClient.fromUrl(server.url)).rejects.toMatchObject({
      code: 'A2A_AGENT_CARD_INVALID',
    });
  });
});
