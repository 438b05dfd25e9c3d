import { afterEach, describe, expect, it } from 'vitest';

import {
  A2aClient,
  A2aErrorCode,
  A2aRpcError,
  A2aTransportError,
  AgentCardError,
  fetchAgentCard,
  type A2aStreamEvent,
  type A2aTask,
} from '../src';
import { postJson, startEchoServer, userMessage } from './helpers';

let servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function setup() {
  const server = await startEchoServer();
  servers.push(server);
  const client = await A2aClient.fromUrl(server.url);
  return { server, client };
}

function answerText(task: A2aTask): string {
  const part = task.artifacts?.[0]?.parts[0];
  return part?.kind === 'text' ? part.text : '';
}

async function collect(stream: AsyncIterable<A2aStreamEvent>): Promise<A2aStreamEvent[]> {
  const events: A2aStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('agent card', () => {
  it('is served at both well-known paths, generated from the agent', async () => {
    const { server } = await setup();
    const card = await fetchAgentCard(server.url);
    expect(card).toMatchObject({
      name: 'echo',
      description: 'Echoes what it is told.',
      url: `${server.url}/`,
      capabilities: { streaming: true },
    });
    expect(card.skills.map((skill) => skill.id)).toEqual([
      'echo',
      'echo.slow',
      'echo.ask_approval',
      'echo.pay',
    ]);
    const legacy = await (await fetch(`${server.url}/.well-known/agent.json`)).json();
    expect(legacy).toEqual(card);
  });

  it('takes overrides, and an unreachable or invalid card is an AgentCardError', async () => {
    const server = await startEchoServer({
      agentCard: { version: '2.0.0', url: 'http://127.0.0.1:1/rpc' },
    });
    servers.push(server);
    const card = await fetchAgentCard(`${server.url}/.well-known/agent-card.json`);
    expect(card.version).toBe('2.0.0');
    expect(card.url).toBe('http://127.0.0.1:1/rpc');
    await expect(fetchAgentCard(`${server.url}/nothing-here`)).rejects.toSatisfy(
      AgentCardError.isInstance,
    );
    expect(() => new A2aClient({ ...card, url: 'not a url' })).toThrow(AgentCardError);
  });
});

describe('message/send', () => {
  it('runs one turn and returns the completed task with the answer as an artifact', async () => {
    const { client } = await setup();
    const task = (await client.sendMessage({ message: userMessage('hello') })) as A2aTask;
    expect(task.kind).toBe('task');
    expect(task.status.state).toBe('completed');
    expect(answerText(task)).toBe('echo #1: hello');
    expect(task.history?.[0]).toMatchObject({
      role: 'user',
      taskId: task.id,
      contextId: task.contextId,
    });
    expect(task.contextId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('continues the same ADK session when the contextId is sent again', async () => {
    const { client, server } = await setup();
    const first = (await client.sendMessage({ message: userMessage('hello') })) as A2aTask;
    const second = (await client.sendMessage({
      message: userMessage('again', { contextId: first.contextId }),
    })) as A2aTask;
    expect(second.id).not.toBe(first.id);
    expect(second.contextId).toBe(first.contextId);
    expect(answerText(second)).toBe('echo #2: again');
    const session = await server.sessionService.getSession({
      appName: 'echo',
      userId: `A2A_USER_${first.contextId}`,
      sessionId: first.contextId,
    });
    expect(session?.events.filter((event) => event.author === 'user')).toHaveLength(2);
    // Another context is another conversation.
    const other = (await client.sendMessage({ message: userMessage('fresh') })) as A2aTask;
    expect(answerText(other)).toBe('echo #1: fresh');
  });

  it('reports an agent error event as a failed task with the error code', async () => {
    const { client } = await setup();
    const task = (await client.sendMessage({ message: userMessage('fail') })) as A2aTask;
    expect(task.status.state).toBe('failed');
    expect(task.status.message?.parts).toEqual([
      { kind: 'text', text: 'blocked by the fake model' },
    ]);
    expect(task.status.message?.metadata).toEqual({ adk_error_code: 'SAFETY' });
    expect(task.artifacts).toEqual([]);
  });

  it('pauses on a long-running call as input-required, and the function response resumes the task', async () => {
    const { client } = await setup();
    const paused = (await client.sendMessage({ message: userMessage('approve') })) as A2aTask;
    expect(paused.status.state).toBe('input-required');
    expect(paused.status.message?.parts).toEqual([
      {
        kind: 'data',
        data: { id: 'approval-1', name: 'ask_approval', args: { amount: 42 } },
        metadata: { adk_type: 'function_call', adk_is_long_running: true },
      },
    ]);
    const resumed = (await client.sendMessage({
      message: {
        ...userMessage('unused'),
        taskId: paused.id,
        parts: [
          {
            kind: 'data',
            data: { id: 'approval-1', name: 'ask_approval', response: { approved: true } },
            metadata: { adk_type: 'function_response' },
          },
        ],
      },
    })) as A2aTask;
    expect(resumed.id).toBe(paused.id);
    expect(resumed.status.state).toBe('completed');
    expect(answerText(resumed)).toBe('approval: {"approved":true}');
  });
});

describe('human confirmation over A2A', () => {
  it('asks for a tool confirmation as input-required; the answer runs the tool', async () => {
    const { client, server } = await setup();
    const paused = (await client.sendMessage({ message: userMessage('pay') })) as A2aTask;
    expect(paused.status.state).toBe('input-required');
    const request = paused.status.message?.parts[0];
    expect(request).toMatchObject({
      kind: 'data',
      data: {
        id: expect.any(String),
        name: 'adk_request_confirmation',
        args: { originalFunctionCall: { id: 'pay-1', name: 'pay', args: { amount: 5 } } },
      },
      metadata: { adk_type: 'function_call', adk_is_long_running: true },
    });
    const callId = request?.kind === 'data' ? request.data.id : undefined;
    const done = (await client.sendMessage({
      message: {
        ...userMessage('unused'),
        taskId: paused.id,
        parts: [
          {
            kind: 'data',
            data: { id: callId, name: 'adk_request_confirmation', response: { confirmed: true } },
            metadata: { adk_type: 'function_response' },
          },
        ],
      },
    })) as A2aTask;
    expect(done.status.state).toBe('completed');
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
        event.kind === 'status-update' ? `status:${event.status.state}` : event.kind,
      ),
    ).toEqual(['task', 'status:working', 'status:working', 'artifact-update', 'status:completed']);
    const [task, , update, artifact, done] = events;
    expect(task).toMatchObject({ kind: 'task', status: { state: 'submitted' } });
    expect(update).toMatchObject({
      final: false,
      status: { message: { role: 'agent', parts: [{ kind: 'text', text: 'echo #1: hi' }] } },
    });
    expect(artifact).toMatchObject({
      lastChunk: true,
      artifact: { parts: [{ kind: 'text', text: 'echo #1: hi' }] },
    });
    expect(done).toMatchObject({ final: true });
  });

  it('cancels a running task: the stream ends canceled and the task can no longer be canceled', async () => {
    const { client, server } = await setup();
    const stream = client.streamMessage({ message: userMessage('slow') });
    const first = await stream.next();
    const taskId = (first.value as A2aTask).id;
    await server.slowGate.entered;
    const canceled = await client.cancelTask({ id: taskId });
    expect(canceled.status.state).toBe('canceled');
    const rest = await collect({ [Symbol.asyncIterator]: () => stream });
    expect(rest.at(-1)).toMatchObject({
      kind: 'status-update',
      final: true,
      status: { state: 'canceled' },
    });
    expect((await client.getTask({ id: taskId })).status.state).toBe('canceled');
    await expect(client.cancelTask({ id: taskId })).rejects.toMatchObject({
      rpcCode: A2aErrorCode.taskNotCancelable,
    });
    // The slow tool saw the abort: the fake model was never asked to summarise its result.
    expect(server.model.requests).toHaveLength(1);
  });

  it('returns at once with blocking: false; tasks/resubscribe follows the task to its end', async () => {
    const { client, server } = await setup();
    const started = (await client.sendMessage({
      message: userMessage('slow'),
      configuration: { blocking: false },
    })) as A2aTask;
    expect(started.status.state).toBe('working');
    const stream = client.resubscribe({ id: started.id });
    const first = await stream.next();
    expect(first.value).toMatchObject({ kind: 'task', id: started.id });
    await server.slowGate.entered;
    server.slowGate.open();
    const rest = await collect({ [Symbol.asyncIterator]: () => stream });
    expect(rest.at(-1)).toMatchObject({ final: true, status: { state: 'completed' } });
    expect(answerText(await client.getTask({ id: started.id }))).toBe('slow done');
  });
});

describe('errors', () => {
  it('answers unknown tasks, bad params and finished tasks with the spec codes', async () => {
    const { client } = await setup();
    await expect(client.getTask({ id: 'nope' })).rejects.toMatchObject({
      name: 'A2aRpcError',
      rpcCode: A2aErrorCode.taskNotFound,
    });
    await expect(client.cancelTask({ id: 'nope' })).rejects.toMatchObject({
      rpcCode: A2aErrorCode.taskNotFound,
    });
    await expect(
      client.sendMessage({ message: { ...userMessage('x'), parts: [] } }),
    ).rejects.toMatchObject({ rpcCode: A2aErrorCode.invalidParams });
    const done = (await client.sendMessage({ message: userMessage('hello') })) as A2aTask;
    await expect(
      client.sendMessage({ message: userMessage('more', { taskId: done.id }) }),
    ).rejects.toMatchObject({ rpcCode: A2aErrorCode.invalidRequest });
    await expect(
      client.sendMessage({ message: userMessage('more', { taskId: 'unknown-task' }) }),
    ).rejects.toMatchObject({ rpcCode: A2aErrorCode.taskNotFound });
    const error = await client.getTask({ id: 'nope' }).catch((caught: unknown) => caught);
    expect(A2aRpcError.isInstance(error)).toBe(true);
  });

  it('answers a refused stream with a JSON-RPC error the client throws', async () => {
    const { client } = await setup();
    const done = (await client.sendMessage({ message: userMessage('hello') })) as A2aTask;
    const stream = client.streamMessage({ message: userMessage('more', { taskId: done.id }) });
    await expect(stream.next()).rejects.toMatchObject({
      name: 'A2aRpcError',
      rpcCode: A2aErrorCode.invalidRequest,
    });
  });

  it('refuses a body over maxBodyBytes with HTTP 413', async () => {
    const server = await startEchoServer({ maxBodyBytes: 1024 });
    servers.push(server);
    const response = await postJson(`${server.url}/`, {
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: { message: userMessage('x'.repeat(2048)) },
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: A2aErrorCode.invalidRequest } });
    expect(server.model.requests).toHaveLength(0);
  });

  it('refuses a second message while the context has a running task', async () => {
    const { client, server } = await setup();
    const started = (await client.sendMessage({
      message: userMessage('slow'),
      configuration: { blocking: false },
    })) as A2aTask;
    await expect(
      client.sendMessage({ message: userMessage('hello', { contextId: started.contextId }) }),
    ).rejects.toMatchObject({ rpcCode: A2aErrorCode.invalidRequest });
    server.slowGate.open();
  });

  it('answers malformed JSON-RPC with parse, invalid-request and method-not-found errors', async () => {
    const { server } = await setup();
    const url = `${server.url}/`;
    const parse = await (await postJson(url, '{not json')).json();
    expect(parse).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.any(String) },
    });
    const invalid = await (await postJson(url, { id: 1, method: 'tasks/get' })).json();
    expect(invalid).toMatchObject({ id: 1, error: { code: -32600 } });
    const unknown = await (
      await postJson(url, { jsonrpc: '2.0', id: 'x', method: 'tasks/frobnicate', params: {} })
    ).json();
    expect(unknown).toMatchObject({ id: 'x', error: { code: -32601 } });
    const push = await (
      await postJson(url, {
        jsonrpc: '2.0',
        id: 2,
        method: 'tasks/pushNotificationConfig/set',
        params: {},
      })
    ).json();
    expect(push).toMatchObject({ id: 2, error: { code: -32003 } });
  });

  it('turns a refused connection into a retryable A2aTransportError', async () => {
    const { server } = await setup();
    const card = await fetchAgentCard(server.url);
    await server.close();
    servers = [];
    const client = new A2aClient(card);
    const error = await client.getTask({ id: 'x' }).catch((caught: unknown) => caught);
    expect(A2aTransportError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'A2A_TRANSPORT_ERROR', retryable: true });
    await expect(fetchAgentCard(server.url)).rejects.toMatchObject({
      code: 'A2A_AGENT_CARD_INVALID',
    });
  });
});
