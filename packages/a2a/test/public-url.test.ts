import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { InMemorySessionService, InvalidArgumentError } from '@adk/core';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';

import {
  A2aClient,
  createA2aServer,
  listenA2a,
  type A2aServerOptions,
  type AgentCard,
  type Message,
  type Task,
} from '../src';
import { echoAgent, partsText, startEchoServer, userMessage } from './helpers';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

function answerText(result: Message | Task): string {
  return partsText((result as Task).artifacts[0]?.parts);
}

/** The A2A 1.0 card at `base` (its well-known path), or at `base` itself when it names a file. */
async function fetchCard(base: string): Promise<AgentCard & { url?: string }> {
  const url = base.endsWith('.json')
    ? base
    : `${base.replace(/\/+$/, '')}/.well-known/agent-card.json`;
  const response = await fetch(url, { headers: { 'A2A-Version': '1.0' } });
  return (await response.json()) as AgentCard;
}

/** The JSON-RPC endpoint (protocol 1.0) a card advertises. */
async function endpointOf(base: string): Promise<string | undefined> {
  const card = await fetchCard(base);
  return card.supportedInterfaces.find(
    (entry) => entry.protocolBinding === 'JSONRPC' && entry.protocolVersion === '1.0',
  )?.url;
}

/** What a 0.3 client reads as the endpoint: the 0.3 card's `url`. */
async function legacyEndpointOf(url: string): Promise<unknown> {
  return ((await (await fetch(url)).json()) as { url?: unknown }).url;
}

/** The echo agent's A2A app mounted at `mountPath` of a parent Hono app, listening. */
async function mounted(mountPath: string, options: Partial<A2aServerOptions>) {
  const a2a = createA2aServer({
    agent: echoAgent().agent,
    sessionService: new InMemorySessionService({ packIdleSessionsAfterMs: false }),
    ...options,
  });
  const parent = new Hono();
  parent.route(mountPath, a2a);
  const server = await listenA2a(parent, { port: 0 });
  cleanups.push(async () => {
    await server.close();
    await a2a.close();
  });
  return server;
}

/**
 * A reverse proxy on 127.0.0.1 that forwards `<prefix>/...` to `<target>/...` (the prefix
 * stripped, `Host` set to the target's), as nginx's `proxy_pass http://backend/;` does. Set
 * `target` once the backend listens.
 */
async function reverseProxy(prefix: string): Promise<{ url: string; target: string }> {
  const state = { url: '', target: '' };
  const proxy: Server = createServer((incoming, outgoing) => {
    const path = incoming.url ?? '/';
    if (!path.startsWith(prefix)) {
      outgoing.writeHead(404).end();
      return;
    }
    const backend = new URL(state.target);
    const upstream = request(
      {
        hostname: backend.hostname,
        port: backend.port,
        method: incoming.method,
        path: path.slice(prefix.length) || '/',
        headers: { ...incoming.headers, host: backend.host },
      },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  );
  state.url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return state;
}

/** GET `url` with a `Host` header of our choosing (fetch does not let one set it). */
function getWithHost(url: string, host: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve(JSON.parse(body) as Record<string, unknown>));
    })
      .on('error', reject)
      .end();
  });
}

describe('the endpoint the agent card advertises', () => {
  it('names the endpoint under the mount path with basePath, and a client reaches it', async () => {
    const server = await mounted('/agents/echo', { basePath: '/agents/echo' });
    const base = `${server.url}/agents/echo`;
    expect(await endpointOf(base)).toBe(base);
    expect(await legacyEndpointOf(`${base}/.well-known/agent.json`)).toBe(base);
    const card = await fetchCard(base);
    expect(
      card.supportedInterfaces.find((entry) => entry.protocolBinding === 'HTTP+JSON')?.url,
    ).toBe(`${base}/rest`);
    const client = await A2aClient.fromUrl(`${base}/`);
    expect(answerText(await client.sendMessage({ message: userMessage('hello') }))).toBe(
      'echo #1: hello',
    );
    const rest = await A2aClient.fromUrl(`${base}/`, { preferredTransports: ['HTTP+JSON'] });
    expect(answerText(await rest.sendMessage({ message: userMessage('over rest') }))).toBe(
      'echo #1: over rest',
    );
  });

  it('joins basePath and rpcPath, trailing slashes aside', async () => {
    const server = await mounted('/agents/echo', { basePath: '/agents/echo/', rpcPath: '/rpc' });
    expect(await endpointOf(`${server.url}/agents/echo`)).toBe(`${server.url}/agents/echo/rpc`);
    const client = await A2aClient.fromUrl(`${server.url}/agents/echo/`);
    expect(answerText(await client.sendMessage({ message: userMessage('via rpc') }))).toBe(
      'echo #1: via rpc',
    );
  });

  it('without basePath names the origin root, as before, so a mounted app needs one', async () => {
    const server = await mounted('/agents/echo', {});
    expect(await endpointOf(`${server.url}/agents/echo`)).toBe(`${server.url}/`);
  });

  it('behind a reverse proxy that strips a prefix, without publicUrl names the backend', async () => {
    const proxy = await reverseProxy('/travel');
    const backend = await startEchoServer();
    cleanups.push(() => backend.close());
    proxy.target = backend.url;
    // The card names the backend as the proxy reaches it: useless to the proxy's clients.
    expect(await endpointOf(`${proxy.url}/travel`)).toBe(`${backend.url}/`);
  });

  it('behind that proxy, advertises publicUrl, and a client works through the proxy', async () => {
    const proxy = await reverseProxy('/travel');
    const backend = await startEchoServer({ publicUrl: `${proxy.url}/travel/` });
    cleanups.push(() => backend.close());
    proxy.target = backend.url;
    expect(await endpointOf(`${proxy.url}/travel`)).toBe(`${proxy.url}/travel`);
    const client = await A2aClient.fromUrl(`${proxy.url}/travel/`);
    const first = (await client.sendMessage({ message: userMessage('hello') })) as Task;
    expect(answerText(first)).toBe('echo #1: hello');
    const second = await client.sendMessage({
      message: userMessage('again', { contextId: first.contextId }),
    });
    expect(answerText(second)).toBe('echo #2: again');
    // Fixed: a forged Host header does not change it (forwarded headers are not trusted).
    const forged = await getWithHost(`${backend.url}/.well-known/agent-card.json`, 'evil.example');
    expect(forged.url).toBe(`${proxy.url}/travel`);
    // Explicit interfaces still win.
    const pinned = await startEchoServer({
      publicUrl: `${proxy.url}/travel`,
      agentCard: {
        supportedInterfaces: [
          {
            url: 'https://agents.example.com/echo',
            protocolBinding: 'JSONRPC',
            protocolVersion: '1.0',
            tenant: '',
          },
        ],
      },
    });
    cleanups.push(() => pinned.close());
    expect(await endpointOf(pinned.url)).toBe('https://agents.example.com/echo');
  });

  it('joins publicUrl and rpcPath; a bare origin names its root', async () => {
    const rpc = await startEchoServer({
      publicUrl: 'https://agents.example.com/a',
      rpcPath: '/rpc',
    });
    cleanups.push(() => rpc.close());
    expect(await endpointOf(rpc.url)).toBe('https://agents.example.com/a/rpc');
    const root = await startEchoServer({ publicUrl: 'https://agents.example.com' });
    cleanups.push(() => root.close());
    expect(await endpointOf(root.url)).toBe('https://agents.example.com/');
  });
});

describe('publicUrl and basePath options', () => {
  const agent = echoAgent().agent;
  const refused = (options: Partial<A2aServerOptions>) => {
    let error: unknown;
    try {
      createA2aServer({ agent, ...options });
    } catch (caught) {
      error = caught;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    return error as InvalidArgumentError;
  };

  it('refuses both together, and malformed values, with InvalidArgumentError', () => {
    expect(refused({ basePath: '/a', publicUrl: 'https://x.example/a' }).message).toMatch(
      /not both/,
    );
    for (const publicUrl of [
      'not a url',
      '/relative',
      'ftp://x.example/',
      'https://x.example/?a=1',
      'https://x.example/#top',
    ]) {
      expect(refused({ publicUrl }).message).toContain(publicUrl);
    }
    for (const basePath of ['agents', '/a?b=1', '/a#b', '//evil.example']) {
      expect(refused({ basePath }).message).toContain(basePath);
    }
  });
});
