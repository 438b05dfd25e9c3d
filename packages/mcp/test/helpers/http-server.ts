import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** What the test server saw, for the assertions. */
export interface ServerLog {
  /** `x-user` header of each `tools/call` of `whoami`. */
  users: (string | undefined)[];
  /** Names of the `slow` calls whose request was cancelled by the client. */
  cancelled: string[];
  /** Sessions initialised, in order. */
  sessions: string[];
}

/** A Streamable HTTP (and legacy SSE) MCP server on 127.0.0.1, built on the SDK's own classes. */
export interface TestHttpServer {
  /** Streamable HTTP endpoint. */
  url: string;
  /** Legacy SSE endpoint (GET to open the stream). */
  sseUrl: string;
  log: ServerLog;
  /** Forget every Streamable HTTP session, as a server restart or an expiry does. */
  expireSessions(): Promise<void>;
  close(): Promise<void>;
}

function buildServer(log: ServerLog): McpServer {
  const server = new McpServer(
    { name: 'adk-test-server', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  server.registerTool(
    'add',
    { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } },
    ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
      structuredContent: { sum: a + b },
    }),
  );
  server.registerTool('whoami', { description: 'Echoes the x-user header.' }, (extra) => {
    const user = extra.requestInfo?.headers['x-user'];
    const value = Array.isArray(user) ? user[0] : user;
    log.users.push(value);
    return { content: [{ type: 'text', text: value ?? '(nobody)' }] };
  });
  server.registerTool(
    'slow',
    { description: 'Waits, unless cancelled.', inputSchema: { name: z.string(), ms: z.number() } },
    async ({ name, ms }, extra) => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        extra.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          log.cancelled.push(name);
          resolve();
        });
      });
      return { content: [{ type: 'text', text: `done ${name}` }] };
    },
  );
  server.registerTool('fail', { description: 'Always reports an error.' }, () => ({
    isError: true,
    content: [{ type: 'text', text: 'the disk is full' }],
  }));
  server.registerTool(
    'add-tool',
    { description: 'Registers a new tool.', inputSchema: { name: z.string() } },
    ({ name }) => {
      server.registerTool(name, { description: `Added at run time: ${name}.` }, () => ({
        content: [{ type: 'text', text: `I am ${name}` }],
      }));
      return { content: [{ type: 'text', text: `added ${name}` }] };
    },
  );
  return server;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** Start the server on 127.0.0.1, port 0. */
export async function startTestHttpServer(): Promise<TestHttpServer> {
  const log: ServerLog = { users: [], cancelled: [], sessions: [] };
  const streamable = new Map<string, StreamableHTTPServerTransport>();
  const sse = new Map<string, SSEServerTransport>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/sse' && req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res);
      sse.set(transport.sessionId, transport);
      res.on('close', () => sse.delete(transport.sessionId));
      await buildServer(log).connect(transport);
      return;
    }
    if (url.pathname === '/messages' && req.method === 'POST') {
      const transport = sse.get(url.searchParams.get('sessionId') ?? '');
      if (!transport) return void res.writeHead(404).end();
      await transport.handlePostMessage(req, res);
      return;
    }
    if (url.pathname !== '/mcp') return void res.writeHead(404).end();
    const sessionId = req.headers['mcp-session-id'];
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    if (typeof sessionId === 'string') {
      const transport = streamable.get(sessionId);
      if (!transport) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32001, message: 'Session not found' },
            id: null,
          }),
        );
        return;
      }
      await transport.handleRequest(req, res, body);
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        streamable.set(id, transport);
        log.sessions.push(id);
      },
    });
    await buildServer(log).connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    sseUrl: `http://127.0.0.1:${port}/sse`,
    log,
    async expireSessions() {
      const transports = [...streamable.values()];
      streamable.clear();
      await Promise.all(transports.map((transport) => transport.close()));
    },
    async close() {
      await Promise.all([...streamable.values(), ...sse.values()].map((t) => t.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
