import type {
  AgentCard,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageConfiguration,
  StreamResponse,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
  type RequestOptions,
  type TransportFactory,
} from '@a2a-js/sdk/client';
import { A2A_ERROR_CODE, A2AError } from '@a2a-js/sdk/errors';

import { A2aRpcError } from '../errors/a2a-rpc-error';
import { A2aTransportError } from '../errors/a2a-transport-error';
import { AgentCardError } from '../errors/agent-card-error';

/** gRPC status of a call without valid credentials. */
const GRPC_UNAUTHENTICATED = 16;

/** The transports a client may use, in order of preference. */
export type A2aTransportName = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';

/** Options of {@link A2aClient}. */
export interface A2aClientOptions {
  /** The HTTP client (default the global `fetch`). */
  fetch?: typeof fetch;
  /** Headers sent with every request, the card's included (for example `Authorization`). */
  headers?: Record<string, string>;
  /** Timeout of each non-streaming call (default 600,000 ms). */
  timeoutMs?: number;
  /** Transports to prefer over the card's order (default: the card's order). */
  preferredTransports?: A2aTransportName[];
  /**
   * More transports of the A2A SDK, e.g. `new GrpcTransportFactory()` of
   * `@a2a-js/sdk/client/grpc` for agents served over gRPC (JSON-RPC and REST are built in).
   */
  transports?: TransportFactory[];
}

/** Per-call options. */
export interface A2aCallOptions {
  /** Cancels the call (and, for a stream, stops reading it). */
  signal?: AbortSignal;
  /** Headers for this call only (a user's credential, for example). */
  headers?: Record<string, string>;
}

/** What {@link A2aClient.sendMessage} and {@link A2aClient.streamMessage} send. */
export interface A2aSendParams {
  message: Message;
  configuration?: Partial<SendMessageConfiguration>;
  metadata?: Record<string, unknown>;
}

/**
 * A client of one remote A2A agent, on the official A2A SDK: it reads the agent card, picks the
 * transport (JSON-RPC or HTTP+JSON) and the protocol version (1.0, or 0.3 for an agent that
 * speaks only that) the card offers, and speaks it.
 *
 * Failures are typed: {@link AgentCardError} when the card cannot be read, {@link
 * A2aTransportError} when the HTTP exchange fails (connection, timeout, HTTP status), {@link
 * A2aRpcError} when the agent answers with a protocol error (`rpcCode` is the A2A error code).
 *
 * @example
 * ```ts
 * const client = await A2aClient.fromUrl('http://127.0.0.1:9000');
 * const result = await client.sendMessage({ message: contentToA2aMessage(userContent('Hi'), Role.ROLE_USER)! });
 * ```
 */
export class A2aClient {
  /** The agent card the client was built from. */
  readonly card: AgentCard;
  readonly #client: Client;
  readonly #options: A2aClientOptions;
  readonly #url: string;

  private constructor(card: AgentCard, client: Client, url: string, options: A2aClientOptions) {
    this.card = card;
    this.#client = client;
    this.#url = url;
    this.#options = options;
  }

  /**
   * Read the agent card and connect to the agent. `url` is the agent's address (its card is at
   * `<url>/.well-known/agent-card.json`) or the card's own URL (ending in `.json`).
   */
  static async fromUrl(url: string, options: A2aClientOptions = {}): Promise<A2aClient> {
    let card: AgentCard;
    try {
      card = url.endsWith('.json')
        ? await resolver(options).resolve(url, '')
        : await resolver(options).resolve(url.endsWith('/') ? url : `${url}/`);
    } catch (error) {
      throw new AgentCardError({
        message: `Could not read the agent card of ${url}: ${describe(error)}`,
        url,
        cause: error,
      });
    }
    return A2aClient.fromCard(card, options);
  }

  /** Connect to the agent an agent card (1.0, or 0.3 read by `fromUrl`) describes. */
  static async fromCard(card: AgentCard, options: A2aClientOptions = {}): Promise<A2aClient> {
    try {
      const client = await factory(options).createFromAgentCard(card);
      return new A2aClient(card, client, card.supportedInterfaces[0]?.url ?? card.name, options);
    } catch (error) {
      throw new AgentCardError({
        message: `Unusable agent card: ${describe(error)}`,
        cause: error,
      });
    }
  }

  /** The protocol version this client speaks with the agent (`1.0` or `0.3`). */
  get protocolVersion(): string {
    return this.#client.protocolVersion;
  }

  /** The agent card (the authenticated extended one when the agent offers it). */
  getAgentCard(options: A2aCallOptions = {}): Promise<AgentCard> {
    return this.#call((request) => this.#client.getAgentCard(request), options);
  }

  /** Send a message; waits until the task completes, fails or needs input (unless told not to). */
  sendMessage(params: A2aSendParams, options: A2aCallOptions = {}): Promise<Message | Task> {
    return this.#call((request) => this.#client.sendMessage(sendRequest(params), request), {
      ...options,
      timeout: true,
    });
  }

  /** Send a message and yield the task's updates as they happen. */
  streamMessage(
    params: A2aSendParams,
    options: A2aCallOptions = {},
  ): AsyncGenerator<StreamResponse> {
    return this.#stream(
      (request) => this.#client.sendMessageStream(sendRequest(params), request),
      options,
    );
  }

  /** Follow a running task's updates again (after a dropped stream). */
  resubscribe(id: string, options: A2aCallOptions = {}): AsyncGenerator<StreamResponse> {
    return this.#stream(
      (request) => this.#client.resubscribeTask({ tenant: '', id }, request),
      options,
    );
  }

  /** A task, with at most `historyLength` messages of its history. */
  getTask(id: string, historyLength?: number, options: A2aCallOptions = {}): Promise<Task> {
    return this.#call(
      (request) => this.#client.getTask({ tenant: '', id, historyLength }, request),
      { ...options, timeout: true },
    );
  }

  /** Cancel a running task. */
  cancelTask(id: string, options: A2aCallOptions = {}): Promise<Task> {
    return this.#call(
      (request) => this.#client.cancelTask({ tenant: '', id, metadata: undefined }, request),
      { ...options, timeout: true },
    );
  }

  /** The caller's tasks, newest first, a page at a time (`nextPageToken` fetches the next). */
  listTasks(
    params: Partial<ListTasksRequest> = {},
    options: A2aCallOptions = {},
  ): Promise<ListTasksResponse> {
    const request: ListTasksRequest = {
      tenant: '',
      contextId: '',
      status: 0,
      pageToken: '',
      statusTimestampAfter: undefined,
      ...params,
    };
    return this.#call((call) => this.#client.listTasks(request, call), {
      ...options,
      timeout: true,
    });
  }

  /** Ask the agent to call `config.url` with the task's updates. */
  setPushNotificationConfig(
    config: Pick<TaskPushNotificationConfig, 'taskId' | 'url'> &
      Partial<TaskPushNotificationConfig>,
    options: A2aCallOptions = {},
  ): Promise<TaskPushNotificationConfig> {
    const full: TaskPushNotificationConfig = {
      tenant: '',
      id: '',
      token: '',
      authentication: undefined,
      ...config,
    };
    return this.#call((request) => this.#client.createTaskPushNotificationConfig(full, request), {
      ...options,
      timeout: true,
    });
  }

  /** The push-notification configs of a task. */
  async listPushNotificationConfigs(
    taskId: string,
    options: A2aCallOptions = {},
  ): Promise<TaskPushNotificationConfig[]> {
    const answer = await this.#call(
      (request) =>
        this.#client.listTaskPushNotificationConfig(
          { tenant: '', taskId, pageSize: 0, pageToken: '' },
          request,
        ),
      { ...options, timeout: true },
    );
    return answer.configs;
  }

  /** Stop sending a task's updates to one webhook. */
  deletePushNotificationConfig(
    taskId: string,
    id: string,
    options: A2aCallOptions = {},
  ): Promise<void> {
    return this.#call(
      (request) =>
        this.#client.deleteTaskPushNotificationConfig({ tenant: '', taskId, id }, request),
      { ...options, timeout: true },
    );
  }

  #request(options: A2aCallOptions & { timeout?: boolean }): RequestOptions {
    const signals = [options.signal];
    if (options.timeout) signals.push(AbortSignal.timeout(this.#options.timeoutMs ?? 600_000));
    const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
    const request: RequestOptions = {};
    if (present.length > 0) request.signal = AbortSignal.any(present);
    if (options.headers) request.serviceParameters = { ...options.headers };
    return request;
  }

  async #call<T>(
    call: (request: RequestOptions) => Promise<T>,
    options: A2aCallOptions & { timeout?: boolean },
  ): Promise<T> {
    try {
      return await call(this.#request(options));
    } catch (error) {
      throw this.#typed(error);
    }
  }

  async *#stream(
    open: (request: RequestOptions) => AsyncGenerator<StreamResponse, void, undefined>,
    options: A2aCallOptions,
  ): AsyncGenerator<StreamResponse> {
    try {
      yield* open(this.#request(options));
    } catch (error) {
      throw this.#typed(error);
    }
  }

  #typed(error: unknown): Error {
    // Ours, possibly wrapped by the SDK (`cause`).
    for (let cause = error, depth = 0; cause && depth < 5; depth++) {
      if (A2aRpcError.isInstance(cause) || A2aTransportError.isInstance(cause)) return cause;
      cause = (cause as { cause?: unknown }).cause;
    }
    const grpcStatus = (error as { transport?: unknown; status?: unknown } | null) ?? {};
    if (grpcStatus.transport === 'grpc' && grpcStatus.status === GRPC_UNAUTHENTICATED) {
      // What HTTP says with 401: the same typed error whichever transport carried the call.
      return new A2aTransportError({
        url: this.#url,
        message: `The agent answered HTTP 401 (gRPC status 16, UNAUTHENTICATED): ${describe(error)}`,
        status: 401,
        retryable: false,
        cause: error,
      });
    }
    if (error instanceof A2AError) {
      const envelope = (error as { envelopeCode?: unknown }).envelopeCode;
      const rpcCode =
        typeof envelope === 'number'
          ? envelope
          : (A2A_ERROR_CODE[error.reason as keyof typeof A2A_ERROR_CODE] ??
            A2A_ERROR_CODE.INTERNAL_ERROR);
      return new A2aRpcError({
        rpcCode,
        message: error.message,
        data: { reason: error.reason },
        cause: error,
      });
    }
    const message = describe(error);
    const status = /(?:Status: |: )(\d{3})\b/.exec(message)?.[1];
    const aborted = (error as { name?: unknown } | null)?.name === 'AbortError';
    if (status !== undefined) {
      const code = Number(status);
      return new A2aTransportError({
        url: this.#url,
        message: `The agent answered HTTP ${code}: ${message}`,
        status: code,
        retryable: code === 408 || code === 429 || code >= 500,
        cause: error,
      });
    }
    return new A2aTransportError({
      url: this.#url,
      message: `The A2A call failed: ${message}`,
      retryable: !aborted,
      cause: error,
    });
  }
}

function sendRequest(params: A2aSendParams) {
  return {
    tenant: '',
    message: params.message,
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      returnImmediately: false,
      ...params.configuration,
    },
    metadata: params.metadata,
  };
}

const legacyCompat = { enabled: true };

function resolver(options: A2aClientOptions): DefaultAgentCardResolver {
  const fetchImpl = withHeaders(options.fetch ?? fetch, options.headers);
  return new DefaultAgentCardResolver({ fetchImpl, legacyCompat });
}

function factory(options: A2aClientOptions): ClientFactory {
  const fetchImpl = withHeaders(options.fetch ?? fetch, options.headers);
  return new ClientFactory({
    transports: [
      new JsonRpcTransportFactory({ fetchImpl, legacyCompat }),
      new RestTransportFactory({ fetchImpl, legacyCompat }),
      ...(options.transports ?? []),
    ],
    cardResolver: resolver(options),
    ...(options.preferredTransports ? { preferredTransports: options.preferredTransports } : {}),
  });
}

/**
 * `fetchImpl` sending `headers` with every request, and failing a request the agent refused for
 * its credentials (401, 403) with a typed error: the SDK's streaming transport would otherwise
 * report it as an internal error.
 */
function withHeaders(
  fetchImpl: typeof fetch,
  headers: Record<string, string> | undefined,
): typeof fetch {
  return async (input, init = {}) => {
    const merged = new Headers(init.headers);
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (!merged.has(name)) merged.set(name, value);
    }
    const response = await fetchImpl(input, { ...init, headers: merged });
    if (response.status === 401 || response.status === 403) {
      const url = input instanceof Request ? input.url : String(input);
      const detail = (await response.text().catch(() => '')).slice(0, 300);
      throw new A2aTransportError({
        url,
        message: `The agent refused the credentials (HTTP ${response.status})${detail ? `: ${detail}` : '.'}`,
        status: response.status,
        retryable: false,
      });
    }
    return response;
  };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}
