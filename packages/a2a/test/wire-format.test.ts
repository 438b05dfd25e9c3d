/**
 * The bytes on the wire, for clients that speak the protocol without an SDK: a JSON-RPC request
 * written by hand from the A2A specification, for 1.0 (`A2A-Version: 1.0`, enum names, parts
 * without `kind`) and for 0.3 (no version header, `kind` fields, lower-case states).
 */
import { afterEach, describe, expect, it } from 'vitest';

import { startEchoServer } from './helpers';

let servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { response, text: await response.text() };
}

describe('A2A 1.0 JSON-RPC', () => {
  it('SendMessage answers the completed task in the 1.0 JSON spelling', async () => {
    const server = await startEchoServer();
    servers.push(server);
    const { response, text } = await post(
      `${server.url}/`,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: {
          message: {
            messageId: '9229e770-767c-417b-a0b0-f0741243c589',
            role: 'ROLE_USER',
            parts: [{ text: 'tell me a joke' }],
          },
        },
      },
      { 'A2A-Version': '1.0' },
    );
    expect(response.status).toBe(200);
    const body = JSON.parse(text) as {
      jsonrpc: string;
      id: number;
      result: Record<string, unknown>;
    };
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 1 });
    const task = (body.result.task ?? body.result) as Record<string, unknown>;
    expect(task).toMatchObject({
      id: expect.any(String),
      contextId: expect.any(String),
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: [
        {
          artifactId: expect.any(String),
          name: 'response',
          parts: [{ text: 'echo #1: tell me a joke' }],
        },
      ],
    });
    expect(text).not.toContain('"kind"');
    expect(JSON.stringify(task.history)).toContain('"role":"ROLE_AGENT"');
  });

  it('GetTask of an unknown task answers -32001', async () => {
    const server = await startEchoServer();
    servers.push(server);
    const { text } = await post(
      `${server.url}/`,
      { jsonrpc: '2.0', id: 'x', method: 'GetTask', params: { id: 'nope' } },
      { 'A2A-Version': '1.0' },
    );
    expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', id: 'x', error: { code: -32001 } });
  });
});

describe('A2A 0.3 JSON-RPC (no version header)', () => {
  it('message/send and message/stream answer in the 0.3 spelling', async () => {
    const server = await startEchoServer();
    servers.push(server);
    const message = {
      kind: 'message',
      messageId: '9229e770-767c-417b-a0b0-f0741243c589',
      role: 'user',
      parts: [{ kind: 'text', text: 'tell me a joke' }],
    };
    const sent = JSON.parse(
      (
        await post(`${server.url}/`, {
          jsonrpc: '2.0',
          id: 1,
          method: 'message/send',
          params: { message },
        })
      ).text,
    ) as { result: Record<string, unknown> };
    expect(sent.result).toMatchObject({
      kind: 'task',
      status: { state: 'completed' },
      artifacts: [{ parts: [{ kind: 'text', text: 'echo #1: tell me a joke' }] }],
    });
    const { response, text } = await post(`${server.url}/`, {
      jsonrpc: '2.0',
      id: 'stream-1',
      method: 'message/stream',
      params: { message: { ...message, messageId: 'm2', contextId: sent.result.contextId } },
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const frames = text
      .split('\n\n')
      .filter((frame) => frame.startsWith('data: '))
      .map(
        (frame) =>
          JSON.parse(frame.slice(6)) as {
            id: string;
            result: { kind: string; status?: { state: string } };
          },
      );
    expect(frames.every((frame) => frame.id === 'stream-1')).toBe(true);
    expect(frames.map((frame) => frame.result.kind)).toEqual([
      'task',
      'status-update',
      'status-update',
      'artifact-update',
      'status-update',
    ]);
    expect(frames.at(-1)?.result.status?.state).toBe('completed');
  });
});
