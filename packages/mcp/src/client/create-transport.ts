import { AsyncLocalStorage } from 'node:async_hooks';

import type { ReadonlyContext } from '@adk/core';
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

import type { McpConnectionParams, McpHeaders } from './connection-params';
import { guardResponses, type FetchLike } from './guard-responses';
import type { StderrTail } from './stderr-tail';

/**
 * The context of the run on whose behalf a request is sent, read by the header function of an
 * HTTP connection. Set around each request; async context carries it to the transport's fetch.
 */
export const requestContext = new AsyncLocalStorage<ReadonlyContext | undefined>();

function fetchWithHeaders(headers: McpHeaders | undefined): FetchLike | undefined {
  if (headers === undefined) return undefined;
  return async (url, init) => {
    const extra =
      typeof headers === 'function' ? await headers(requestContext.getStore()) : headers;
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(extra)) merged.set(name, value);
    return fetch(url, { ...init, headers: merged });
  };
}

/**
 * The legacy SSE client, loaded only when a connection uses it. The specifier is kept out of the
 * type graph on purpose: its `eventsource` dependency publishes TypeScript sources under the
 * `source` export condition, which would otherwise be type-checked by every package importing
 * this one from source.
 */
const SSE_CLIENT_MODULE: string = '@modelcontextprotocol/sdk/client/sse.js';
type SseTransportClass = new (url: URL, options?: { fetch?: FetchLike }) => Transport;

/** A fresh SDK transport for `params`; a stdio transport pipes the child's stderr into `tail`. */
export async function createTransport(
  params: McpConnectionParams,
  tail: StderrTail,
): Promise<Transport> {
  switch (params.transport) {
    case 'stdio': {
      const transport = new StdioClientTransport({
        command: params.command,
        args: params.args ?? [],
        env: { ...getDefaultEnvironment(), ...params.env },
        stderr: 'pipe',
        ...(params.cwd === undefined ? {} : { cwd: params.cwd }),
      });
      tail.attach(transport.stderr);
      return transport;
    }
    case 'streamable-http': {
      const guarded = guardResponses(
        fetchWithHeaders(params.headers) ?? ((url, init) => fetch(url, init)),
      );
      return new StreamableHTTPClientTransport(new URL(params.url), { fetch: guarded });
    }
    case 'sse': {
      const fetch = fetchWithHeaders(params.headers);
      const { SSEClientTransport } = (await import(SSE_CLIENT_MODULE)) as {
        SSEClientTransport: SseTransportClass;
      };
      return new SSEClientTransport(new URL(params.url), fetch === undefined ? {} : { fetch });
    }
  }
}
