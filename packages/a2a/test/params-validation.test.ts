/**
 * Bad parameters of a task method are the client's mistake: JSON-RPC -32602 (invalid params)
 * with a message naming the field, never -32603 with a JavaScript error's text.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { startEchoServer } from './helpers';

let servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function rpc(url: string, method: string, params: unknown, version?: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(version ? { 'A2A-Version': version } : {}) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'q', method, params }),
  });
  return (await response.json()) as { id: unknown; error?: { code: number; message: string } };
}

const CASES: [string, string, unknown, string | undefined][] = [
  ['GetTask', '1.0 id a number', { id: 5 }, '1.0'],
  ['GetTask', '1.0 id missing', {}, '1.0'],
  ['CancelTask', '1.0 id an object', { id: { x: 1 } }, '1.0'],
  ['tasks/get', '0.3 id a number', { id: 5 }, undefined],
  ['tasks/get', '0.3 id null', { id: null }, undefined],
  ['tasks/get', '0.3 params not an object', 'abc', undefined],
  ['tasks/cancel', '0.3 id a boolean', { id: true }, undefined],
  ['tasks/get', '0.3 historyLength a string', { id: 't', historyLength: 'all' }, undefined],
];

describe('task methods with invalid params', () => {
  for (const [method, label, params, version] of CASES) {
    it(`${method} with ${label} answers -32602`, async () => {
      const server = await startEchoServer();
      servers.push(server);
      const answer = await rpc(`${server.url}/`, method, params, version);
      expect(answer.id).toBe('q');
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).not.toMatch(/is not a function|Cannot read|undefined/);
    });
  }
});
