import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

import { createMcpServer, type McpServeHandler } from './create-mcp-server';
import type { McpServeHttpOptions, McpServing } from './serve-options';

/** Largest request body accepted, in bytes. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

function jsonRpcError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return Symbol.for('too-large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/**
 * Serve `handler` over Streamable HTTP: one SDK transport and `Server` per MCP session, keyed by
 * the `mcp-session-id` header; the ADK session of a request is `mcp-<that id>`. A closed session
 * (the client's DELETE) is forgotten, so the map holds only live sessions.
 */
export async function serveHttp(
  handler: McpServeHandler,
  options: McpServeHttpOptions & { version: string },
): Promise<McpServing> {
  const path = options.path ?? '/mcp';
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  // When each session was last used: one idle longer than `sessionIdleMs` is closed, so sessions
  // clients abandon without a DELETE do not pile up with uptime.
  const lastUsed = new Map<string, number>();
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const [id, used] of lastUsed) {
        if (now - used < idleMs) continue;
        lastUsed.delete(id);
        void sessions.get(id)?.close();
        sessions.delete(id);
      }
    },
    Math.min(idleMs, 60_000),
  );
  sweeper.unref();
  const sessionIdOf = (id: string | undefined) => `mcp-${id ?? 'stateless'}`;
  // Filled once listening: on a loopback interface only these Host headers are accepted, so a
  // web page cannot reach the server through DNS rebinding.
  let allowedHosts: string[] | undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== path) {
      res.writeHead(404).end();
      return;
    }
    let body: unknown;
    if (req.method === 'POST') {
      try {
        body = await readJson(req);
      } catch {
        return jsonRpcError(res, 400, 'The body is not JSON.');
      }
      if (body === Symbol.for('too-large')) return jsonRpcError(res, 413, 'The body is too large.');
    }
    const header = req.headers['mcp-session-id'];
    if (typeof header === 'string') {
      const transport = sessions.get(header);
      if (!transport) return jsonRpcError(res, 404, 'Session not found.');
      lastUsed.set(header, Date.now());
      await transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST') return jsonRpcError(res, 400, 'No MCP session.');
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
        lastUsed.set(id, Date.now());
      },
      ...(allowedHosts ? { enableDnsRebindingProtection: true, allowedHosts } : {}),
    });
    transport.onclose = () => {
      if (transport.sessionId) {
        sessions.delete(transport.sessionId);
        lastUsed.delete(transport.sessionId);
      }
    };
    await createMcpServer(handler, { version: options.version, sessionIdOf }).connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) jsonRpcError(res, 500, 'Internal error.');
      else res.end();
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  if (['127.0.0.1', 'localhost', '::1'].includes(host)) {
    allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  }
  return {
    url: `http://${urlHost}:${port}${path}`,
    async close() {
      clearInterval(sweeper);
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await handler.close();
    },
  };
}
