import {
  LiveRequestQueue,
  takeLiveEvents,
  type Event,
  type LiveRequest,
  type RunLiveRequest,
} from '@adk/core';
import type { WSContext } from 'hono/ws';
import type { WebSocket } from 'ws';

import type { ServerContext } from '../app/server-context';
import { ClientDisconnectedError } from '../errors/client-disconnected-error';
import { LiveFrameError } from '../errors/live-frame-error';
import { sseErrorEvent } from '../run/sse';
import { liveEventFrame } from './live-event-json';
import { parseLiveRequest } from './parse-live-request';

/** Options of every frame sent: text, even when given as bytes. */
const TEXT = { binary: false } as const;

/** Outgoing bytes buffered on a socket before the run waits for the client to read. */
const HIGH_WATER_BYTES = 1024 * 1024;

/** WebSocket close codes of `/run_live`. */
export const LIVE_CLOSE_CODES = {
  /** The run ended (the client sent `close`). */
  normal: 1000,
  /** App or session not found, or the app cannot run live (as Python ADK). */
  notFound: 1002,
  /** A binary frame (the protocol is JSON text). */
  unsupportedData: 1003,
  /** A frame that is not a live request. */
  invalidPayload: 1007,
  /** The run failed (the error frame sent before says why). */
  internalError: 1011,
} as const;

/** What one live socket runs: the app's `runLive` and its request, minus the queue. */
export interface LiveSocketRun {
  runLive: (request: RunLiveRequest) => AsyncGenerator<Event, void>;
  request: Omit<RunLiveRequest, 'liveRequests' | 'signal'>;
  sessionId: string;
  agentName: string;
}

/**
 * One `/run_live` WebSocket: client frames go into a bounded {@link LiveRequestQueue} (the
 * socket stops being read while it is full), and the run's events go out as JSON text frames,
 * as `/run_sse` sends them. Ends with close code 1000 after the run; a malformed frame gets an
 * error frame and 1007 (1003 for binary); a failed run an error frame and 1011. A client going
 * away aborts the run (its model connection is closed).
 */
export class LiveSocket {
  readonly #queue: LiveRequestQueue;
  readonly #controller = new AbortController();
  #ws: WSContext<WebSocket> | undefined;
  /** Requests waiting for room in the queue, in arrival order. */
  readonly #backlog: LiveRequest[] = [];
  #draining = false;
  #invocationId = '';
  #closed = false;
  /** Set by a malformed frame: the run ends gracefully, then the socket closes with it. */
  #closeWith: { code: number; reason: string } | undefined;

  constructor(
    private readonly ctx: ServerContext,
    private readonly run: LiveSocketRun,
    capacity: number,
  ) {
    this.#queue = new LiveRequestQueue({ capacity });
  }

  /** The socket opened: start the run. */
  open(ws: WSContext<WebSocket>): void {
    this.#ws = ws;
    void this.#forward();
  }

  /** A client frame. */
  message(data: unknown): void {
    if (this.#closed || this.#closeWith || this.#queue.closed) return;
    let request: LiveRequest;
    try {
      if (typeof data !== 'string') {
        throw new LiveFrameError({
          message: 'Invalid live request: binary frames are not supported; send JSON text.',
          closeCode: LIVE_CLOSE_CODES.unsupportedData,
        });
      }
      request = parseLiveRequest(data);
    } catch (error) {
      // Refuse the frame; the run ends as if the client had closed (what was said is stored).
      const frameError = error as LiveFrameError;
      void this.#send(
        JSON.stringify(sseErrorEvent(frameError, this.#invocationId, this.run.agentName)),
      );
      this.#closeWith = { code: frameError.closeCode, reason: frameError.message };
      this.#backlog.length = 0;
      this.#queue.close();
      return;
    }
    if ('close' in request) {
      this.#queue.close();
      return;
    }
    if (this.#backlog.length === 0 && this.#queue.trySend(request)) return;
    // The queue is full: stop reading the socket until the run has caught up.
    this.#backlog.push(request);
    this.#ws?.raw?.pause();
    void this.#drain();
  }

  /** The client went away (or the socket closed after the run). */
  closed(): void {
    if (!this.#closed) {
      this.#closed = true;
      this.#controller.abort(new ClientDisconnectedError());
    }
    this.#queue.close();
  }

  async #drain(): Promise<void> {
    if (this.#draining) return;
    this.#draining = true;
    try {
      while (this.#backlog.length > 0) {
        const next = this.#backlog.shift() as LiveRequest;
        if (this.#queue.closed) break;
        await this.#queue.send(next);
      }
    } catch {
      // The queue closed while waiting: the run is over, nothing left to deliver.
    } finally {
      this.#backlog.length = 0;
      this.#draining = false;
      if (!this.#closed) this.#ws?.raw?.resume();
    }
  }

  async #forward(): Promise<void> {
    const { runLive, request, sessionId } = this.run;
    try {
      const events = runLive({
        ...request,
        liveRequests: this.#queue,
        signal: this.#controller.signal,
      });
      // An audio chunk goes from the provider's socket to this one synchronously (no await
      // per chunk) while the client keeps up; the rest comes through the loop, in order.
      takeLiveEvents(events, this.#take);
      for await (const event of events) {
        this.#invocationId = event.invocationId;
        this.ctx.traces.linkEvent(sessionId, event);
        const sending = this.#send(liveEventFrame(this.ctx.time.event(event)));
        if (sending) await sending;
      }
      const { code, reason } = this.#closeWith ?? {
        code: LIVE_CLOSE_CODES.normal,
        reason: 'Live run ended.',
      };
      this.#close(code, reason);
    } catch (error) {
      if (this.#controller.signal.aborted) return;
      this.#fail(error, LIVE_CLOSE_CODES.internalError);
    }
  }

  /**
   * An event taken as it is made (see `takeLiveEvents`): sent at once unless the client is slow
   * to read (then `false`: the loop of #forward waits for it). A failure fails the run as one in
   * the loop does.
   */
  readonly #take = (event: Event): boolean => {
    const raw = this.#ws?.raw;
    if (!raw || this.#closed || raw.bufferedAmount >= HIGH_WATER_BYTES) return false;
    try {
      this.#invocationId = event.invocationId;
      this.ctx.traces.linkEvent(this.run.sessionId, event);
      raw.send(liveEventFrame(this.ctx.time.event(event)), TEXT);
    } catch (error) {
      this.#fail(error, LIVE_CLOSE_CODES.internalError);
    }
    return true;
  };

  /**
   * Send a text frame (its text, or its UTF-8 bytes); waits while the client is slow to read
   * (bounded buffering).
   */
  #send(frame: string | Buffer): Promise<void> | undefined {
    const raw = this.#ws?.raw;
    if (!raw || this.#closed) return undefined;
    if (raw.bufferedAmount < HIGH_WATER_BYTES) {
      raw.send(frame, TEXT);
      return undefined;
    }
    return new Promise<void>((resolve) => raw.send(frame, TEXT, () => resolve()));
  }

  #fail(error: unknown, code: number): void {
    if (this.#closed) return;
    const frame = sseErrorEvent(error, this.#invocationId, this.run.agentName);
    void this.#send(JSON.stringify(frame));
    this.#close(code, frame.errorMessage);
  }

  #close(code: number, reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue.close();
    this.#controller.abort(new ClientDisconnectedError());
    // A close reason is at most 123 bytes.
    this.#ws?.close(code, truncate(reason, 120));
  }
}

function truncate(text: string, bytes: number): string {
  const buffer = Buffer.from(text);
  if (buffer.length <= bytes) return text;
  return buffer
    .subarray(0, bytes)
    .toString()
    .replace(/\uFFFD$/, '');
}
