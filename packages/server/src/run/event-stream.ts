import { ServerResponse } from 'node:http';

import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';

import { SSE_KEEP_ALIVE_TEXT } from './sse';

/** How {@link sseResponse} turns a source into frames. */
export interface SseResponseOptions<T> {
  /** While quiet, send an SSE comment this often (ms); 0 turns it off. */
  keepAliveMs: number;
  /** The frame of one item. */
  frame(item: T): string;
  /** The frame that ends the stream when the source throws; `undefined` ends it without one. */
  errorFrame(error: unknown): string | undefined;
  /** The client went away before the source ended. */
  onCancel(reason: unknown): void;
  /** The source ended (done or thrown) while the client was connected. */
  onEnd?(): void;
}

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};

/**
 * The frames of one SSE response, written either through the web `ReadableStream` of its
 * `Response` (any runtime, any adapter) or, when {@link listen} serves the app on Node, straight to
 * Node's `ServerResponse` (no web stream, no per-frame copy), once every middleware has added its
 * headers. Whichever starts first owns the source; the other is never started.
 */
class SseFrames<T> {
  readonly #source: AsyncIterator<T>;
  readonly #options: SseResponseOptions<T>;
  #started = false;

  constructor(source: AsyncIterator<T>, options: SseResponseOptions<T>) {
    this.#source = source;
    this.#options = options;
  }

  /** The body of the `Response`: pulls one item per read, nothing before the first read. */
  stream(): ReadableStream<Uint8Array> {
    const options = this.#options;
    const encoder = new TextEncoder();
    let keepAlive: NodeJS.Timeout | undefined;
    const stopKeepAlive = () => clearInterval(keepAlive);
    return new ReadableStream<Uint8Array>(
      {
        pull: async (stream) => {
          if (!this.#started) {
            this.#started = true;
            if (options.keepAliveMs > 0) {
              keepAlive = setInterval(() => {
                try {
                  stream.enqueue(encoder.encode(SSE_KEEP_ALIVE_TEXT));
                } catch {
                  stopKeepAlive(); // the stream is already closed
                }
              }, options.keepAliveMs);
              keepAlive.unref();
            }
          }
          try {
            const next = await this.#source.next();
            if (next.done) {
              stopKeepAlive();
              options.onEnd?.();
              return stream.close();
            }
            stream.enqueue(encoder.encode(options.frame(next.value)));
          } catch (error) {
            stopKeepAlive();
            options.onEnd?.();
            const frame = options.errorFrame(error);
            if (frame !== undefined) stream.enqueue(encoder.encode(frame));
            stream.close();
          }
        },
        cancel: (reason) => {
          stopKeepAlive();
          options.onCancel(reason);
        },
      },
      // Nothing is pulled before the first read: a response written straight to Node never
      // starts this stream.
      { highWaterMark: 0 },
    );
  }

  /**
   * Write the response to `outgoing` itself: `status` and `headers` as the app's middleware left
   * them, then one write per frame, keep-alives while quiet. Returns false (and writes nothing)
   * when the stream was already started.
   */
  writeTo(outgoing: ServerResponse, status: number, headers: Headers): boolean {
    if (this.#started) return false;
    this.#started = true;
    const options = this.#options;
    if (outgoing.destroyed) {
      // The client left before the answer was ready: its 'close' has passed.
      options.onCancel(undefined);
      return true;
    }
    const head: Record<string, string | string[]> = {};
    for (const [name, value] of headers)
      head[name] = name === 'set-cookie' ? headers.getSetCookie() : value;
    outgoing.writeHead(status, head);
    // The headers leave with the first frame (one write) when it is ready at once, else alone.
    // (`headersSent` is already true here: Node counts headers as sent once `writeHead` built them.)
    let wrote = false;
    const flush = setImmediate(() => {
      if (!wrote && !outgoing.destroyed) outgoing.flushHeaders();
    });
    let ended = false;
    let wakeWriter: (() => void) | undefined;
    const keepAlive =
      options.keepAliveMs > 0
        ? setInterval(() => {
            wrote = true;
            outgoing.write(SSE_KEEP_ALIVE_TEXT);
          }, options.keepAliveMs)
        : undefined;
    keepAlive?.unref();
    const finish = (last?: string) => {
      ended = true;
      clearImmediate(flush);
      clearInterval(keepAlive);
      if (last === undefined) outgoing.end();
      else outgoing.end(last);
    };
    const gone = (reason: unknown) => {
      wakeWriter?.();
      if (ended) return;
      ended = true;
      clearImmediate(flush);
      clearInterval(keepAlive);
      options.onCancel(reason);
    };
    outgoing.once('close', () => gone(undefined));
    outgoing.on('error', gone);
    outgoing.on('drain', () => wakeWriter?.());
    void (async () => {
      while (!ended) {
        let frame: string;
        try {
          const next = await this.#source.next();
          if (ended) return; // the client went away meanwhile: onCancel took over
          if (next.done) {
            options.onEnd?.();
            return finish();
          }
          frame = options.frame(next.value);
        } catch (error) {
          if (ended) return;
          options.onEnd?.();
          return finish(options.errorFrame(error));
        }
        wrote = true;
        if (!outgoing.write(frame) && !ended)
          await new Promise<void>((resolve) => (wakeWriter = resolve));
        wakeWriter = undefined;
      }
    })();
    return true;
  }
}

/**
 * The native `Response` class: `@hono/node-server` puts a lighter one of its own in the global
 * while it serves (a subclass), which it would send as an empty 200 instead of reading the marker.
 */
const NativeResponse: typeof Response =
  Object.getPrototypeOf(Response) === Function.prototype
    ? Response
    : Object.getPrototypeOf(Response);

/** Tells `@hono/node-server` that the route wrote the response itself. */
const ALREADY_SENT = new NativeResponse(null, { headers: RESPONSE_ALREADY_SENT.headers });

/**
 * Set (to `true`) in the `env` of a request by a server that calls {@link takeOverSseResponse}
 * with the app's final response ({@link listen} does): the SSE routes then build no web stream
 * for their frames, which nobody would read.
 */
export const SSE_TAKE_OVER: unique symbol = Symbol('adk.sseTakeOver');

/** The SSE responses that {@link takeOverSseResponse} may write itself, by their Node response. */
const pending = new WeakMap<ServerResponse, { response: Response; frames: SseFrames<never> }>();

/**
 * A `text/event-stream` response pulling `source` one item per frame. `env` is the request's
 * (`c.env`): on `@hono/node-server` it holds Node's response, which {@link takeOverSseResponse}
 * may then write the frames to directly. When `env` also says that a server will call it
 * ({@link SSE_TAKE_OVER}), the response's body is empty, never read: no web stream is built for
 * the frames (constructing one costs about 10 µs of CPU on Node 20).
 */
export function sseResponse<T>(
  source: AsyncIterator<T>,
  options: SseResponseOptions<T>,
  env?: unknown,
): Response {
  const frames = new SseFrames(source, options) as SseFrames<never>;
  const outgoing = (env as { outgoing?: unknown } | undefined)?.outgoing;
  if (!(outgoing instanceof ServerResponse))
    return new Response(frames.stream(), { headers: SSE_HEADERS });
  const body = (env as Record<symbol, unknown>)[SSE_TAKE_OVER] === true ? '' : frames.stream();
  const response = new Response(body, { headers: SSE_HEADERS });
  pending.set(outgoing, { response, frames });
  return response;
}

/**
 * Called with the app's final response to a request on Node (after every middleware, so with the
 * headers they added, CORS included): when it is an SSE response of {@link sseResponse}, write it
 * to `outgoing` directly and return the marker response that tells `@hono/node-server` it was
 * sent; otherwise return `response` unchanged (and the adapter sends it as usual).
 */
export function takeOverSseResponse(response: Response, outgoing: unknown): Response {
  if (!(outgoing instanceof ServerResponse)) return response;
  const claim = pending.get(outgoing);
  if (!claim) return response;
  pending.delete(outgoing);
  // The route's response, or a copy with its body (Hono's context copies it when a middleware set
  // headers before the route answered); a middleware may also have put another response in its
  // place, which the adapter then sends. (Reading `body` builds a lightweight response's native
  // one: only done for a response that is not the route's own.)
  if (response !== claim.response && response.body !== claim.response.body) return response;
  if (!claim.frames.writeTo(outgoing, response.status, response.headers)) return response;
  return ALREADY_SENT;
}
