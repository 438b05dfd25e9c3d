import { readFileSync } from 'node:fs';

import { afterEach, describe, expect, it } from 'vitest';

import { A2aClient, contentToA2aMessage, fetchAgentCard } from '../src';
import { postJson, startEchoServer } from './helpers';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** A fixture with its placeholders turned into matchers (see `__fixtures__/README.md`). */
function fixture(name: string): unknown {
  const raw = JSON.parse(
    readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8'),
  ) as unknown;
  const walk = (value: unknown): unknown => {
    if (value === '<string>') return expect.any(String);
    if (value === '<uuid>') return expect.stringMatching(UUID);
    if (value === '<iso>') return expect.stringMatching(ISO);
    if (value === '<any>') return expect.anything();
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item)]));
    }
    return value;
  };
  return walk(raw);
}

function rawFixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8'));
}

let servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function server() {
  const started = await startEchoServer();
  servers.push(started);
  return started;
}

describe('wire format (spec field names)', () => {
  it('agent card', async () => {
    const { url } = await server();
    expect(await (await fetch(`${url}/.well-known/agent-card.json`)).json()).toEqual(
      fixture('agent-card.json'),
    );
  });

  it('message/send: a spec request gets a JSON-RPC response holding the completed Task', async () => {
    const { url } = await server();
    const response = await postJson(`${url}/`, rawFixture('message-send-request.json'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = (await response.json()) as {
      result: { id: string; contextId: string; history: { taskId: string }[] };
    };
    expect(body).toEqual(fixture('message-send-response.json'));
    expect(body.result.history.every((message) => message.taskId === body.result.id)).toBe(true);
  });

  it('message/stream: SSE frames, each a JSON-RPC response with one stream event', async () => {
    const { url } = await server();
    const response = await postJson(`${url}/`, {
      jsonrpc: '2.0',
      id: 'stream-1',
      method: 'message/stream',
      params: {
        message: {
          kind: 'message',
          messageId: 'msg-1',
          role: 'user',
          contextId: 'ctx-fixture',
          parts: [{ kind: 'text', text: 'hi' }],
        },
      },
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const text = await response.text();
    const frames = text
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => JSON.parse(block.slice('data: '.length)) as unknown);
    expect(frames).toEqual(fixture('message-stream-frames.json'));
  });

  it('tasks/get of an unknown task: error -32001', async () => {
    const { url } = await server();
    const response = await postJson(`${url}/`, {
      jsonrpc: '2.0',
      id: 'get-1',
      method: 'tasks/get',
      params: { id: 'missing' },
    });
    expect(await response.json()).toEqual(fixture('task-not-found.json'));
  });

  it('the client sends a spec request: text, inline file and file URI parts', async () => {
    const { url } = await server();
    const bodies: unknown[] = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      if (init?.method === 'POST') bodies.push(JSON.parse(String(init.body)));
      return fetch(input, init);
    };
    const client = new A2aClient(await fetchAgentCard(url), { fetch: recordingFetch });
    const message = contentToA2aMessage(
      {
        role: 'user',
        parts: [
          { text: 'What is on the picture?' },
          { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
          { fileData: { fileUri: 'gs://bucket/doc.pdf', mimeType: 'application/pdf' } },
        ],
      },
      'user',
    );
    for await (const _event of client.streamMessage({ message: message! })) {
      // drain
    }
    expect(bodies).toEqual([fixture('client-stream-request.json')]);
  });
});
