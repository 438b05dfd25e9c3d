import { STATUS_CODES } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

import { fetch as undiciFetch, request, type Dispatcher } from 'undici';

/** Options of {@link requestFetch}. */
export interface RequestFetchOptions {
  /**
   * The undici dispatcher requests go through (an `Agent` with your pool settings, a
   * `ProxyAgent`...). Default: undici's global dispatcher, the keep-alive pool `fetch` uses too.
   */
  dispatcher?: Dispatcher;
}

/** Statuses whose response has no body (fetch's "null body status"). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** What a plain call is made of; anything else goes through undici's `fetch`. */
interface PlainCall {
  url: string;
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
  signal: AbortSignal | undefined;
}

/**
 * A `fetch` for AI SDK providers (their `fetch` setting) that sends the calls they make over
 * undici's `request`, the HTTP client of ADK's own providers, instead of the WHATWG `fetch`
 * machinery: about half a millisecond less per call on a local server (see docs/PERFORMANCE.md),
 * same keep-alive connection pool. A call with a string or bytes body (or none) from a URL goes
 * this way; anything else (a `Request` object, form data, a stream or blob body, `redirect`
 * other than `follow`) goes through `fetch` (undici's on the given dispatcher, else the global
 * one), and a call answered with a redirect is sent again through it, so fetch's redirect rules
 * apply. Aborts reject with the signal's reason, a request that reaches no server rejects with
 * `TypeError('fetch failed')` and its cause, and a body cut short errors with a `TypeError`, as
 * `fetch` does, so the AI SDK classifies errors as it would; gzip, deflate and brotli answers are
 * decoded. The response's `url` is empty, `redirected` false, and `statusText` the standard
 * reason phrase of the status.
 *
 * @example
 * ```ts
 * import { aiSdkModel, requestFetch } from '@adk/models-ai-sdk';
 * import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
 *
 * const provider = createOpenAICompatible({
 *   name: 'local',
 *   baseURL: 'http://127.0.0.1:11434/v1',
 *   fetch: requestFetch(),
 * });
 * const model = aiSdkModel(provider('llama3.2'));
 * ```
 */
export function requestFetch(options: RequestFetchOptions = {}): typeof globalThis.fetch {
  const { dispatcher } = options;
  const viaFetch = (input: string | URL | Request, init: RequestInit | undefined) =>
    dispatcher
      ? (undiciFetch(
          input as never,
          { ...init, dispatcher } as never,
        ) as unknown as Promise<Response>)
      : globalThis.fetch(input, init);
  return async (input, init) => {
    const call = plainCall(input, init);
    if (!call) return viaFetch(input, init);
    call.signal?.throwIfAborted();
    let answer: Dispatcher.ResponseData;
    try {
      answer = await request(call.url, {
        method: call.method,
        headers: call.headers,
        body: call.body,
        signal: call.signal,
        dispatcher,
      });
    } catch (error) {
      if (call.signal?.aborted) throw call.signal.reason;
      throw new TypeError('fetch failed', { cause: error });
    }
    const { statusCode } = answer;
    if (statusCode >= 300 && statusCode < 400 && answer.headers.location !== undefined) {
      // fetch's redirect rules (method changes, headers dropped across origins) stay fetch's.
      discard(answer.body);
      return viaFetch(input, init);
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      else if (value !== undefined) headers.append(name, value);
    }
    const init2 = { status: statusCode, statusText: STATUS_CODES[statusCode] ?? '', headers };
    if (call.method === 'HEAD' || NULL_BODY_STATUSES.has(statusCode)) {
      discard(answer.body);
      return new Response(null, init2);
    }
    return new Response(webBody(decoded(answer), call.signal), init2);
  };
}

/** Reads and drops a body nobody will read (the connection stays reusable when it is short). */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.dump().catch(() => undefined);
}

/** The call as a plain `request`, or undefined when only `fetch` can make it. */
function plainCall(
  input: string | URL | Request,
  init: RequestInit | undefined,
): PlainCall | undefined {
  if (typeof input !== 'string' && !(input instanceof URL)) return undefined;
  if (init?.redirect !== undefined && init.redirect !== 'follow') return undefined;
  const source = init?.body;
  let body: string | Buffer | undefined;
  if (source === undefined || source === null) body = undefined;
  else if (typeof source === 'string') body = source;
  else if (source instanceof ArrayBuffer) body = Buffer.from(source);
  else if (ArrayBuffer.isView(source))
    body = Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  else return undefined;
  const headers = headerRecord(init?.headers);
  if (typeof body === 'string' && headers['content-type'] === undefined)
    headers['content-type'] = 'text/plain;charset=UTF-8';
  return {
    url: typeof input === 'string' ? input : input.href,
    method: (init?.method ?? 'GET').toUpperCase() as Dispatcher.HttpMethod,
    headers,
    body,
    signal: init?.signal ?? undefined,
  };
}

/** Request headers as a record with lower-case names (a `Headers`, pairs or a record). */
function headerRecord(given: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (given === undefined) return out;
  const pairs: Iterable<[string, string]> | undefined =
    Array.isArray(given) || typeof (given as Headers).entries === 'function'
      ? (given as Iterable<[string, string]>)
      : undefined;
  if (pairs) {
    for (const [name, value] of pairs) {
      const key = name.toLowerCase();
      out[key] = out[key] === undefined ? String(value) : `${out[key]}, ${String(value)}`;
    }
    return out;
  }
  for (const [name, value] of Object.entries(given as Record<string, string | undefined>)) {
    if (value !== undefined) out[name.toLowerCase()] = String(value);
  }
  return out;
}

/** The body, decoded when it is gzip, deflate or brotli (as fetch decodes it). */
function decoded(answer: Dispatcher.ResponseData): Readable {
  const encoding = answer.headers['content-encoding'];
  const coding = (typeof encoding === 'string' ? encoding : '').trim().toLowerCase();
  const decoder =
    coding === 'gzip' || coding === 'x-gzip'
      ? createGunzip()
      : coding === 'deflate'
        ? createInflate()
        : coding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (!decoder) return answer.body;
  answer.body.on('error', (error) => decoder.destroy(error));
  decoder.on('close', () => {
    if (!answer.body.destroyed) answer.body.destroy();
  });
  return answer.body.pipe(decoder);
}

/**
 * A Node stream as the response's web stream: chunks as they arrive, paused while the reader
 * does not keep up, an abort as the signal's reason and a broken connection as fetch's
 * `TypeError('terminated')`; cancelling the web stream closes the connection.
 */
function webBody(body: Readable, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      body.on('data', (chunk: Buffer) => {
        if (!open) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) body.pause();
      });
      body.once('end', () => {
        if (open) controller.close();
        open = false;
      });
      body.once('error', (error) => {
        if (!open) return;
        open = false;
        controller.error(
          signal?.aborted ? signal.reason : new TypeError('terminated', { cause: error }),
        );
      });
    },
    pull() {
      body.resume();
    },
    cancel() {
      open = false;
      body.destroy();
    },
  });
}
