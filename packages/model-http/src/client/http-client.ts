import { request, type Dispatcher } from 'undici';

import type { CircuitPermit } from '../circuit-breaker/circuit-breaker';
import { ModelApiError } from '../errors/model-api-error';
import { ModelConnectionError } from '../errors/model-connection-error';
import { ModelStreamError } from '../errors/model-stream-error';
import { ModelTimeoutError } from '../errors/model-timeout-error';
import { backoffDelay } from '../retry/backoff';
import type { ResolvedRetryOptions } from '../retry/retry-options';
import { sleep } from '../retry/sleep';
import { defaultErrorParser } from './default-error-parser';
import { readApiError } from './read-api-error';
import type {
  HttpCall,
  HttpClientOptions,
  HttpJsonResponse,
  HttpStream,
  ProviderErrorInfo,
} from './http-client-options';

interface Attempt {
  response: Dispatcher.ResponseData;
  controller: AbortController;
  timer: NodeJS.Timeout;
}

/**
 * The HTTP transport every ADK provider package shares: JSON POSTs and streamed POSTs over undici
 * with timeouts, `AbortSignal` support end to end, retries with exponential backoff and jitter
 * (honouring `Retry-After`), typed errors and an optional per-model circuit breaker.
 *
 * @example
 * ```ts
 * const http = new HttpClient({ provider: 'acme', baseURL: 'https://api.acme.dev/v1',
 *   headers: { authorization: `Bearer ${key}` }, circuitBreaker: new CircuitBreaker() });
 * const { data } = await http.postJson({ model: 'acme-1', path: '/complete', body: { prompt } });
 * ```
 */
export class HttpClient {
  readonly provider: string;
  private readonly options: HttpClientOptions;
  private readonly retry: ResolvedRetryOptions;
  private readonly timeoutMs: number;
  private readonly streamIdleTimeoutMs: number;
  private readonly parseErrorBody: (body: unknown) => ProviderErrorInfo | undefined;

  constructor(options: HttpClientOptions) {
    this.provider = options.provider;
    this.options = options;
    this.timeoutMs = options.timeoutMs ?? 600_000;
    this.streamIdleTimeoutMs = options.streamIdleTimeoutMs ?? 300_000;
    this.parseErrorBody = options.parseErrorBody ?? defaultErrorParser;
    const retry = options.retry ?? {};
    this.retry = {
      maxRetries: Math.max(0, retry.maxRetries ?? 2),
      initialDelayMs: retry.initialDelayMs ?? 500,
      maxDelayMs: retry.maxDelayMs ?? 8_000,
      maxRetryAfterMs: retry.maxRetryAfterMs ?? 60_000,
      random: retry.random ?? Math.random,
      sleep: retry.sleep ?? sleep,
      onRetry: retry.onRetry,
    };
  }

  /**
   * POSTs `call.body` as JSON (or sends `call.method` without a body: `GET`, `DELETE`) and returns
   * the parsed JSON answer.
   */
  async postJson<T = unknown>(call: HttpCall): Promise<HttpJsonResponse<T>> {
    const permit = this.acquire(call.model);
    try {
      const attempt = await this.send(call, true);
      try {
        const text = await attempt.response.body.text();
        permit.success();
        try {
          return {
            status: attempt.response.statusCode,
            headers: attempt.response.headers,
            data: JSON.parse(text) as T,
          };
        } catch (cause) {
          throw new ModelStreamError({
            provider: this.provider,
            model: call.model,
            kind: 'malformed',
            message: 'the response body is not valid JSON',
            chunk: text,
            cause,
          });
        }
      } catch (error) {
        throw this.mapBodyError(error, call, attempt, 'response');
      } finally {
        clearTimeout(attempt.timer);
      }
    } catch (error) {
      this.settle(permit, error, call.signal);
      throw error;
    }
  }

  /**
   * POSTs `call.body` as JSON and returns the streamed answer once its headers arrived with a 2xx
   * status. Failures before that point are retried like {@link postJson}'s; the stream itself is not.
   */
  async postStream(call: HttpCall): Promise<HttpStream> {
    const permit = this.acquire(call.model);
    let attempt: Attempt;
    try {
      attempt = await this.send(call, false);
    } catch (error) {
      this.settle(permit, error, call.signal);
      throw error;
    }
    return {
      status: attempt.response.statusCode,
      headers: attempt.response.headers,
      body: this.iterateBody(call, attempt, permit),
    };
  }

  private async *iterateBody(
    call: HttpCall,
    attempt: Attempt,
    permit: CircuitPermit,
  ): AsyncGenerator<Uint8Array, void> {
    const { response, controller } = attempt;
    let idleTimer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(
        () => controller.abort(this.idleTimeout(call)),
        this.streamIdleTimeoutMs,
      );
    };
    let done = false;
    try {
      arm();
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        // The idle clock only runs while waiting on the network, not while the consumer works.
        clearTimeout(idleTimer);
        yield chunk;
        arm();
      }
      done = true;
      permit.success();
    } catch (error) {
      const mapped = this.mapBodyError(error, call, attempt, 'stream-idle');
      this.settle(permit, mapped, call.signal);
      done = true;
      throw mapped;
    } finally {
      clearTimeout(idleTimer);
      if (!done) {
        // The consumer stopped early: close the connection; the backend itself was healthy.
        permit.success();
        response.body.destroy();
      }
    }
  }

  private acquire(model: string): CircuitPermit {
    const breaker = this.options.circuitBreaker;
    if (!breaker) return { success() {}, failure() {}, release() {} };
    return breaker.acquire(model, this.provider);
  }

  private settle(permit: CircuitPermit, error: unknown, signal: AbortSignal | undefined): void {
    if (signal?.aborted && error === signal.reason) permit.release();
    else if (ModelApiError.isInstance(error) && !error.retryable) permit.success();
    else if (ModelStreamError.isInstance(error) && error.kind === 'malformed') permit.success();
    else permit.failure();
  }

  /** Sends with retries until a 2xx response; its body is left unread. */
  private async send(call: HttpCall, wholeBody: boolean): Promise<Attempt> {
    const url = this.url(call);
    const headers = this.headers(call);
    const method = call.method ?? 'POST';
    const payload = method === 'POST' || method === 'PATCH' ? JSON.stringify(call.body) : undefined;
    for (let retry = 0; ; retry++) {
      call.signal?.throwIfAborted();
      let error: ModelApiError | ModelConnectionError | ModelTimeoutError;
      let retryAfterMs: number | undefined;
      const controller = new AbortController();
      const signal = call.signal
        ? AbortSignal.any([call.signal, controller.signal])
        : controller.signal;
      const timer = setTimeout(() => controller.abort(this.responseTimeout(call)), this.timeoutMs);
      try {
        const response = await request(url, {
          method,
          headers,
          body: payload,
          signal,
          dispatcher: this.options.dispatcher,
          // undici's own limits (300 s by default) would cut long calls short of ours.
          headersTimeout: this.timeoutMs,
          bodyTimeout: wholeBody ? this.timeoutMs : this.streamIdleTimeoutMs,
        });
        if (response.statusCode >= 200 && response.statusCode < 300) {
          if (!wholeBody) clearTimeout(timer);
          return { response, controller, timer };
        }
        error = await readApiError(response, {
          provider: this.provider,
          model: call.model,
          parseErrorBody: this.parseErrorBody,
        });
        clearTimeout(timer);
        retryAfterMs = error.retryAfterMs;
        if (!error.retryable) throw error;
      } catch (cause) {
        clearTimeout(timer);
        if (call.signal?.aborted) throw call.signal.reason;
        if (ModelApiError.isInstance(cause)) throw cause;
        if (ModelTimeoutError.isInstance(controller.signal.reason))
          error = controller.signal.reason;
        else if (errorCode(cause) === 'UND_ERR_HEADERS_TIMEOUT') error = this.responseTimeout(call);
        else if (errorCode(cause) === 'UND_ERR_INVALID_ARG') throw cause;
        else
          error = new ModelConnectionError({
            provider: this.provider,
            model: call.model,
            url: url.split('?')[0] ?? url,
            cause,
          });
      }
      if (retry >= this.retry.maxRetries) throw error;
      if (retryAfterMs !== undefined && retryAfterMs > this.retry.maxRetryAfterMs) throw error;
      const delayMs = retryAfterMs ?? backoffDelay(retry + 1, this.retry);
      this.retry.onRetry?.({
        attempt: retry + 1,
        delayMs,
        delaySource: retryAfterMs === undefined ? 'backoff' : 'retry-after',
        error,
        model: call.model,
      });
      await this.retry.sleep(delayMs, call.signal);
    }
  }

  private mapBodyError(
    error: unknown,
    call: HttpCall,
    attempt: Attempt,
    phase: 'response' | 'stream-idle',
  ): unknown {
    if (call.signal?.aborted) return call.signal.reason;
    const reason: unknown = attempt.controller.signal.reason;
    if (ModelTimeoutError.isInstance(reason)) return reason;
    if (ModelStreamError.isInstance(error)) return error;
    if (errorCode(error) === 'UND_ERR_BODY_TIMEOUT') {
      return phase === 'response' ? this.responseTimeout(call) : this.idleTimeout(call);
    }
    return new ModelStreamError({
      provider: this.provider,
      model: call.model,
      kind: 'interrupted',
      message:
        phase === 'response'
          ? 'the connection broke while reading the response'
          : 'the connection broke mid-stream',
      cause: error,
    });
  }

  private responseTimeout(call: HttpCall): ModelTimeoutError {
    return new ModelTimeoutError({
      provider: this.provider,
      model: call.model,
      timeoutMs: this.timeoutMs,
      phase: 'response',
    });
  }

  private idleTimeout(call: HttpCall): ModelTimeoutError {
    return new ModelTimeoutError({
      provider: this.provider,
      model: call.model,
      timeoutMs: this.streamIdleTimeoutMs,
      phase: 'stream-idle',
    });
  }

  private url(call: HttpCall): string {
    const base = this.options.baseURL.replace(/\/+$/, '');
    const path = call.path.startsWith('/') ? call.path : `/${call.path}`;
    const params = { ...this.options.query, ...call.query };
    const query =
      Object.keys(params).length > 0 ? `?${new URLSearchParams(params).toString()}` : '';
    return `${base}${path}${query}`;
  }

  private headers(call: HttpCall): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    for (const source of [this.options.headers, call.headers]) {
      for (const [name, value] of Object.entries(source ?? {})) {
        if (value !== undefined) headers[name.toLowerCase()] = value;
      }
    }
    return headers;
  }
}

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null
    ? (error as { code?: unknown }).code
    : undefined;
}
