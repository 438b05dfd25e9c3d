import { randomUUID } from 'node:crypto';

import { A2aRpcError } from '../errors/a2a-rpc-error';
import { A2aTransportError } from '../errors/a2a-transport-error';
import { A2aErrorCode, A2aMethod, type JsonRpcResponse } from '../protocol/json-rpc';
import type {
  A2aAgentCard,
  A2aMessageSendParams,
  A2aSendMessageResult,
  A2aStreamEvent,
  A2aTask,
  A2aTaskIdParams,
  A2aTaskQueryParams,
} from '../protocol/types';
import {
  checkAgentCard,
  fetchAgentCard,
  withTimeout,
  type A2aHttpOptions,
} from './fetch-agent-card';
import { readSseData } from './sse-parser';

/** Per-call options. */
export interface A2aCallOptions {
  /** Cancels the call (and, for a stream, stops reading it). */
  signal?: AbortSignal;
}

const STREAM_KINDS = new Set(['task', 'message', 'status-update', 'artifact-update']);

/**
 * A client of one remote A2A agent, over JSON-RPC 2.0 and HTTP (global `fetch` by default).
 *
 * Failures are typed: {@link A2aTransportError} when the HTTP exchange fails (connection, timeout,
 * HTTP status), {@link A2aRpcError} when the agent answers with a JSON-RPC error or an answer that
 * breaks the protocol (`rpcCode` -32006).
 *
 * @example
 * ```ts
 * const client = await A2aClient.fromUrl('http://127.0.0.1:9000');
 * for await (const event of client.streamMessage({
 *   message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'Hi' }] },
 * })) console.log(event.kind);
 * ```
 */
export class A2aClient {
  /** The agent's card; its `url` is the endpoint called. */
  readonly card: A2aAgentCard;
  readonly #options: A2aHttpOptions;

  /** @throws AgentCardError when `card` has no `name` or a missing or invalid `url`. */
  constructor(card: A2aAgentCard, options: A2aHttpOptions = {}) {
    this.card = checkAgentCard(card);
    this.#options = options;
  }

  /**
   * A client for the agent whose card is at `url` (the card's URL, or the agent's base URL).
   *
   * @throws AgentCardError when the card cannot be fetched or is invalid.
   */
  static async fromUrl(
    url: string,
    options: A2aHttpOptions & A2aCallOptions = {},
  ): Promise<A2aClient> {
    return new A2aClient(await fetchAgentCard(url, options), options);
  }

  /** `message/send`: the task (or message) the agent answers with. */
  async sendMessage(
    params: A2aMessageSendParams,
    options: A2aCallOptions = {},
  ): Promise<A2aSendMessageResult> {
    const result = await this.#call(A2aMethod.sendMessage, params, options);
    if (!isKind(result, 'task') && !isKind(result, 'message'))
      throw invalidResponse('message/send did not return a task or a message.');
    return result as A2aSendMessageResult;
  }

  /** `message/stream`: the task's events as the agent produces them, until the final one. */
  async *streamMessage(
    params: A2aMessageSendParams,
    options: A2aCallOptions = {},
  ): AsyncGenerator<A2aStreamEvent, void> {
    yield* this.#stream(A2aMethod.streamMessage, params, options);
  }

  /** `tasks/resubscribe`: the events of a running task from now on (its current state first). */
  async *resubscribe(
    params: A2aTaskIdParams,
    options: A2aCallOptions = {},
  ): AsyncGenerator<A2aStreamEvent, void> {
    yield* this.#stream(A2aMethod.resubscribe, params, options);
  }

  /** `tasks/get`. @throws A2aRpcError -32001 when the agent does not know the task. */
  async getTask(params: A2aTaskQueryParams, options: A2aCallOptions = {}): Promise<A2aTask> {
    const result = await this.#call(A2aMethod.getTask, params, options);
    if (!isKind(result, 'task')) throw invalidResponse('tasks/get did not return a task.');
    return result as A2aTask;
  }

  /** `tasks/cancel`. @throws A2aRpcError -32001 (unknown task) or -32002 (already ended). */
  async cancelTask(params: A2aTaskIdParams, options: A2aCallOptions = {}): Promise<A2aTask> {
    const result = await this.#call(A2aMethod.cancelTask, params, options);
    if (!isKind(result, 'task')) throw invalidResponse('tasks/cancel did not return a task.');
    return result as A2aTask;
  }

  async #call(method: string, params: unknown, options: A2aCallOptions): Promise<unknown> {
    const signal = withTimeout(options.signal, this.#options.timeoutMs ?? 600_000);
    const response = await this.#post(method, params, 'application/json', signal, options.signal);
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      throw invalidResponse(`${method}: the answer is not JSON.`, error);
    }
    return resultOf(body);
  }

  async *#stream(
    method: string,
    params: unknown,
    options: A2aCallOptions,
  ): AsyncGenerator<A2aStreamEvent, void> {
    const response = await this.#post(
      method,
      params,
      'text/event-stream',
      options.signal,
      options.signal,
    );
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream')) {
      // The server refused before streaming: a plain JSON-RPC answer (normally an error).
      const result = resultOf(
        await response.json().catch((error: unknown) => {
          throw invalidResponse(`${method}: the answer is neither SSE nor JSON.`, error);
        }),
      );
      yield checkStreamEvent(result);
      return;
    }
    if (!response.body) throw invalidResponse(`${method}: the stream has no body.`);
    try {
      for await (const data of readSseData(response.body)) {
        let frame: unknown;
        try {
          frame = JSON.parse(data);
        } catch (error) {
          throw invalidResponse(`${method}: a stream frame is not JSON.`, error);
        }
        const event = checkStreamEvent(resultOf(frame));
        yield event;
        if (event.kind === 'status-update' && event.final) return;
      }
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (A2aRpcError.isInstance(error)) throw error;
      throw new A2aTransportError({
        url: this.card.url,
        message: `${method}: the stream broke: ${describe(error)}`,
        retryable: true,
        cause: error,
      });
    }
  }

  async #post(
    method: string,
    params: unknown,
    accept: string,
    signal: AbortSignal | undefined,
    callerSignal: AbortSignal | undefined,
  ): Promise<Response> {
    const url = this.card.url;
    let response: Response;
    try {
      response = await (this.#options.fetch ?? fetch)(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept, ...this.#options.headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method, params }),
        signal,
      });
    } catch (error) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      const timedOut = signal?.aborted === true;
      throw new A2aTransportError({
        url,
        message: timedOut
          ? `${method} to ${url} timed out after ${this.#options.timeoutMs ?? 600_000} ms.`
          : `${method} to ${url} failed: ${describe(error)}`,
        retryable: true,
        cause: error,
      });
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      const status = response.status;
      // Some servers send JSON-RPC errors with an HTTP error status: keep the JSON-RPC error.
      const rpc = tryRpcError(text);
      if (rpc) throw rpc;
      throw new A2aTransportError({
        url,
        status,
        message: `${method} to ${url} failed with HTTP ${status}${text ? `: ${text.slice(0, 200)}` : ''}`,
        retryable: status === 408 || status === 429 || status >= 500,
      });
    }
    return response;
  }
}

function resultOf(body: unknown): unknown {
  if (typeof body !== 'object' || body === null)
    throw invalidResponse('The answer is not a JSON-RPC response.');
  const response = body as JsonRpcResponse;
  if ('error' in response && response.error) {
    const { code, message, data } = response.error;
    throw new A2aRpcError({
      rpcCode: typeof code === 'number' ? code : A2aErrorCode.internalError,
      message: typeof message === 'string' ? message : 'Unknown error',
      data,
    });
  }
  if (!('result' in response)) throw invalidResponse('The answer has neither result nor error.');
  return response.result;
}

function tryRpcError(text: string): A2aRpcError | undefined {
  try {
    resultOf(JSON.parse(text));
  } catch (error) {
    if (A2aRpcError.isInstance(error) && error.rpcCode !== A2aErrorCode.invalidAgentResponse)
      return error;
  }
  return undefined;
}

function checkStreamEvent(value: unknown): A2aStreamEvent {
  const kind = (value as { kind?: unknown } | null)?.kind;
  if (typeof kind !== 'string' || !STREAM_KINDS.has(kind)) {
    throw invalidResponse(`A stream event has an unknown kind: ${JSON.stringify(kind)}.`);
  }
  return value as A2aStreamEvent;
}

function isKind(value: unknown, kind: string): boolean {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === kind;
}

function invalidResponse(message: string, cause?: unknown): A2aRpcError {
  return new A2aRpcError({
    rpcCode: A2aErrorCode.invalidAgentResponse,
    message: `Invalid agent response: ${message}`,
    cause,
  });
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}
