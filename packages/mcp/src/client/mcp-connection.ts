import { setMaxListeners } from 'node:events';

import type { ReadonlyContext } from '@adk/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
  type Tool as McpToolInfo,
} from '@modelcontextprotocol/sdk/types.js';

import { McpProtocolVersionError } from '../errors/mcp-protocol-version-error';
import { McpRequestError } from '../errors/mcp-request-error';
import { McpServerStartError } from '../errors/mcp-server-start-error';
import { forgetChild, trackChild } from './child-reaper';
import type { McpConnectionParams } from './connection-params';
import { createTransport, requestContext } from './create-transport';
import { ConnectionLostError } from './guard-responses';
import { mapMcpError, type FailedRequest } from './map-mcp-error';
import { StderrTail } from './stderr-tail';
import { validateConnectionParams } from './validate-connection';

/** Default timeout of one MCP request (tool call, list, read), in milliseconds. */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

/** Default timeout of starting a server and the MCP handshake, in milliseconds. */
export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 30_000;

const CLIENT_INFO = { name: '@adk/mcp', version: '0.1.0' };

/** Options of {@link McpConnection}. */
export interface McpConnectionOptions {
  /** Names the server in errors and telemetry. */
  serverName: string;
  params: McpConnectionParams;
  /** Timeout of each request unless the request sets its own (60 s by default). */
  timeoutMs?: number;
  /** Timeout of starting the server and the MCP handshake (30 s by default). */
  connectTimeoutMs?: number;
}

/** Per-request options of {@link McpConnection.request}. */
export interface McpRequestOptions {
  /** Named in errors, e.g. `tools/call "echo"`. */
  operation: string;
  toolName?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The calling run's context, given to a header function of an HTTP connection. */
  context?: ReadonlyContext;
}

interface Open {
  client: Client;
  transport: Transport;
  /** Requests sent on this session and not settled yet. */
  inFlight: number;
  /** Replaced after a lost answer: closed once its last request settles. */
  retired: boolean;
}

/**
 * One MCP session, opened lazily on first use and shared by every request after it (concurrent
 * ones included). The server's tool list is cached until the server says it changed
 * (`notifications/tools/list_changed`) or the connection is replaced.
 *
 * Reconnection is transparent only where the request provably never reached the server: the
 * connection was found closed (a stdio server that died between calls, a dropped HTTP stream) or
 * the HTTP session had expired (404). A request in flight when the connection dies fails with
 * `McpTransportClosedError` and is not retried, since it may have taken effect; the next request
 * opens a new connection.
 */
export class McpConnection {
  readonly serverName: string;
  readonly params: McpConnectionParams;
  readonly timeoutMs: number;
  readonly connectTimeoutMs: number;
  #open: Open | undefined;
  #opening: Promise<Open> | undefined;
  #tools: Promise<McpToolInfo[]> | undefined;
  /** Sessions replaced while requests were still in flight on them. */
  readonly #retired = new Set<Open>();
  readonly #contextualHeaders: boolean;
  /** Increases whenever the cached tool list is dropped, so dependants can rebuild. */
  #toolsGeneration = 0;

  /** @throws InvalidArgumentError when the connection settings are incomplete or invalid. */
  constructor(options: McpConnectionOptions) {
    validateConnectionParams(options.params);
    this.serverName = options.serverName;
    this.params = options.params;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
    this.connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS;
    this.#contextualHeaders =
      options.params.transport !== 'stdio' && typeof options.params.headers === 'function';
  }

  /** The transport's name, for telemetry: `stdio`, `streamable-http` or `sse`. */
  get transportName(): McpConnectionParams['transport'] {
    return this.params.transport;
  }

  /** Bumped each time the tool list must be read again. */
  get toolsGeneration(): number {
    return this.#toolsGeneration;
  }

  /** True while a session is open. */
  get isOpen(): boolean {
    return this.#open !== undefined;
  }

  /** Pid of the stdio server process, while one runs. */
  get pid(): number | undefined {
    const transport = this.#open?.transport;
    return transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
  }

  /** The open client (opening the session if needed). */
  async client(): Promise<Client> {
    return (await this.#ensureOpen()).client;
  }

  /** The server's tools, read once per connection and after each `list_changed`. */
  listTools(context?: ReadonlyContext): Promise<McpToolInfo[]> {
    if (this.#tools) return this.#tools;
    const generation = this.#toolsGeneration;
    const listing = this.request(
      async (client, options) => {
        const tools: McpToolInfo[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listTools(cursor === undefined ? {} : { cursor }, options);
          tools.push(...page.tools);
          cursor = page.nextCursor;
        } while (cursor !== undefined);
        return tools;
      },
      { operation: 'tools/list', ...(context ? { context } : {}) },
    );
    this.#tools = listing;
    listing.catch(() => {
      if (this.#tools === listing && this.#toolsGeneration === generation) this.#tools = undefined;
    });
    return listing;
  }

  /**
   * Run `send` with the open client, mapping failures to typed errors, and retry it once on a new
   * connection when the request cannot have reached the server.
   */
  async request<T>(
    send: (client: Client, options: RequestOptions) => Promise<T>,
    options: McpRequestOptions,
  ): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const failed: FailedRequest = {
      serverName: this.serverName,
      operation: options.operation,
      timeoutMs,
      ...(options.toolName === undefined ? {} : { toolName: options.toolName }),
    };
    const runSignal = options.signal;
    const requestOptions: RequestOptions = {
      timeout: timeoutMs,
      ...(runSignal ? { signal: requestSignalFor(runSignal) } : {}),
    };
    const attempt = async (): Promise<T> => {
      const open = this.#open ?? (await this.#ensureOpen());
      open.inFlight += 1;
      try {
        // The run's context is only read by a header function of an HTTP connection; stdio
        // calls skip the async-context scope.
        return this.#contextualHeaders
          ? await requestContext.run(options.context, () => send(open.client, requestOptions))
          : await send(open.client, requestOptions);
      } catch (error) {
        if (neverDelivered(error)) {
          await this.#drop(open);
          throw new RetryableError(error);
        }
        if (connectionLost(error)) this.#retire(open);
        throw error;
      } finally {
        open.inFlight -= 1;
        if (open.retired && open.inFlight === 0) void this.#drop(open);
      }
    };
    try {
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof RetryableError)) throw error;
        options.signal?.throwIfAborted();
        return await attempt();
      }
    } catch (error) {
      const cause = error instanceof RetryableError ? error.cause : error;
      // The SDK reports an abort as a timeout error; the signal says which it was.
      if (options.signal?.aborted) {
        throw new McpRequestError({
          serverName: this.serverName,
          operation: options.operation,
          detail: 'aborted by the run (the server was sent a cancellation)',
          cause,
        });
      }
      throw mapMcpError(failed, cause);
    }
  }

  /** Close the session (a stdio server is stopped: stdin closed, then SIGTERM, then SIGKILL). */
  async close(): Promise<void> {
    const opening = this.#opening;
    if (opening) await opening.catch(() => undefined);
    const open = this.#open;
    await Promise.all([...this.#retired, ...(open ? [open] : [])].map((o) => this.#drop(o)));
  }

  /**
   * An answer was lost with its connection (a server that died, a dropped network): the next
   * request opens a new session, while requests still running on this one keep it until they
   * settle (a stream cut by a proxy takes only its own request with it).
   */
  #retire(open: Open): void {
    if (open.retired) return;
    open.retired = true;
    this.#retired.add(open);
    if (this.#open === open) {
      this.#open = undefined;
      this.#invalidateTools();
    }
  }

  async #ensureOpen(): Promise<Open> {
    if (this.#open) return this.#open;
    this.#opening ??= this.#connect().finally(() => {
      this.#opening = undefined;
    });
    return this.#opening;
  }

  async #connect(): Promise<Open> {
    const tail = new StderrTail();
    let transport: Transport;
    try {
      transport = await createTransport(this.params, tail);
    } catch (error) {
      throw new McpServerStartError({
        serverName: this.serverName,
        reason: error instanceof Error ? error.message : String(error),
        cause: error,
      });
    }
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.#invalidateTools();
    });
    try {
      await client.connect(transport, { timeout: this.connectTimeoutMs });
    } catch (error) {
      await client.close().catch(() => undefined);
      // Let the child's last stderr chunks arrive before reporting them.
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw this.#startError(error, tail.text);
    }
    const open: Open = { client, transport, inFlight: 0, retired: false };
    const pid = transport instanceof StdioClientTransport ? transport.pid : null;
    if (pid !== null) trackChild(pid);
    client.onclose = () => {
      if (pid !== null) forgetChild(pid);
      if (this.#open === open) {
        this.#open = undefined;
        this.#invalidateTools();
      }
    };
    this.#open = open;
    return open;
  }

  #startError(error: unknown, stderr: string): Error {
    const message = error instanceof Error ? error.message : String(error);
    if (/protocol version is not supported/i.test(message)) {
      return new McpProtocolVersionError({ serverName: this.serverName, cause: error });
    }
    const code = (error as { code?: unknown } | undefined)?.code;
    const reason =
      code === 'ENOENT' && this.params.transport === 'stdio'
        ? `command "${this.params.command}" was not found`
        : this.params.transport === 'stdio'
          ? `the process ended before the MCP handshake completed (${message})`
          : `${this.params.url.toString()} did not complete the MCP handshake (${message})`;
    return new McpServerStartError({ serverName: this.serverName, reason, stderr, cause: error });
  }

  #invalidateTools(): void {
    this.#tools = undefined;
    this.#toolsGeneration += 1;
  }

  async #drop(open: Open): Promise<void> {
    this.#retired.delete(open);
    if (this.#open === open) {
      this.#open = undefined;
      this.#invalidateTools();
    }
    const pid = open.transport instanceof StdioClientTransport ? open.transport.pid : null;
    await open.client.close().catch(() => undefined);
    if (pid !== null) forgetChild(pid);
  }
}

/**
 * The SDK adds an abort listener to a request's signal and never removes it. Requests therefore
 * get a signal derived from the run's, one per run signal (held weakly, so it goes with the run):
 * the SDK's listeners gather on it, bounded by the MCP calls of one run, and the run's own signal
 * keeps a single listener. Linking a fresh controller per request cost about 17 µs a call.
 */
const requestSignals = new WeakMap<AbortSignal, AbortSignal>();

function requestSignalFor(runSignal: AbortSignal): AbortSignal {
  let signal = requestSignals.get(runSignal);
  if (signal === undefined) {
    const controller = new AbortController();
    if (runSignal.aborted) controller.abort(runSignal.reason);
    else {
      runSignal.addEventListener('abort', () => controller.abort(runSignal.reason), {
        once: true,
      });
    }
    signal = controller.signal;
    // Many concurrent calls of one run may listen: not a leak worth a warning.
    setMaxListeners(0, signal);
    requestSignals.set(runSignal, signal);
  }
  return signal;
}

/** The connection was lost with the request's answer: the session cannot be trusted any more. */
function connectionLost(error: unknown): boolean {
  if (error instanceof ConnectionLostError) return error.delivered;
  return error instanceof McpError && error.code === Number(ErrorCode.ConnectionClosed);
}

/** Carries an error whose request never reached the server, so one retry is safe. */
class RetryableError extends Error {
  constructor(override readonly cause: unknown) {
    super('retry');
  }
}

/**
 * The request was refused before the server could see it: no connection (closed transport,
 * refused TCP connection), or an expired session.
 */
function neverDelivered(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return error.code === 404;
  if (error instanceof ConnectionLostError) return !error.delivered;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    error.message === 'Not connected' ||
    code === 'EPIPE' ||
    code === 'ERR_STREAM_DESTROYED' ||
    code === 'ERR_STREAM_WRITE_AFTER_END'
  );
}
