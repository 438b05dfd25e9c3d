import {
  LiveResponseBuffer,
  type Content,
  type LiveConnection,
  type LiveRealtimeInput,
  type LlmResponse,
} from '@adk/core';
import { FunctionCallIdPairing, ModelStreamError, ModelTimeoutError } from '@adk/model-http';
import WebSocket, { type RawData } from 'ws';

import { RealtimeAudioInput } from './realtime-audio-input';
import {
  BENIGN_REALTIME_ERROR_CODES,
  closedByServer,
  errorEvent,
  malformedFrame,
  socketError,
  upgradeRefused,
} from './realtime-errors';
import { readAudioDelta } from './read-audio-delta';
import {
  REALTIME_OUTPUT_AUDIO_MIME_TYPE,
  RealtimeEventMapper,
  type MappedEvent,
} from './realtime-event-mapper';
import type {
  RealtimeClientEvent,
  RealtimeServerEvent,
  RealtimeSessionConfig,
} from './realtime-wire';
import { toRealtimeItems } from './to-realtime-items';

/** Where and how to open a Realtime connection (built by `OpenAIModel.connectLive`). */
export interface RealtimeEndpoint {
  /** Provider id and model name, for errors. */
  provider: string;
  model: string;
  /** `wss://.../realtime?model=...`. */
  url: string;
  headers: Record<string, string>;
  /** Longest wait for `session.created` and `session.updated`. */
  connectTimeoutMs: number;
  /** Longest wait for the server's close frame after `close()`, before the socket is destroyed. */
  closeTimeoutMs: number;
  /** Responses waiting for the reader before the socket stops reading (default 512). */
  highWaterMark?: number;
}

/**
 * One OpenAI Realtime WebSocket connection behind the provider-neutral {@link LiveConnection}.
 * Open it with {@link OpenAIRealtimeConnection.open}: it resolves once the server has taken the
 * session configuration (`session.updated`).
 */
export class OpenAIRealtimeConnection implements LiveConnection {
  readonly #endpoint: RealtimeEndpoint;
  readonly #session: RealtimeSessionConfig;
  readonly #socket: WebSocket;
  readonly #mapper: RealtimeEventMapper;
  readonly #queue: LiveResponseBuffer<LlmResponse>;
  readonly #ids = new FunctionCallIdPairing();
  readonly #manual: boolean;
  readonly #interrupts: boolean;
  #state: 'connecting' | 'open' | 'closed' = 'connecting';
  #failure: unknown;
  #handshake: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  #timer: NodeJS.Timeout | undefined;
  #signal: AbortSignal | undefined;
  readonly #onAbort = () => this.#abort();
  readonly #input = new RealtimeAudioInput();
  /** Whether the WebSocket upgrade succeeded (errors before it mean the server is unreachable). */
  #upgraded = false;
  readonly #closed: Promise<void>;

  private constructor(
    endpoint: RealtimeEndpoint,
    session: RealtimeSessionConfig,
    transcribe: boolean,
    interrupts: boolean,
  ) {
    this.#endpoint = endpoint;
    this.#session = session;
    const detection = session.audio?.input?.turn_detection;
    this.#manual = detection === null;
    this.#interrupts = interrupts;
    this.#mapper = new RealtimeEventMapper({ outputTranscription: transcribe, interrupts });
    this.#socket = new WebSocket(endpoint.url, {
      headers: endpoint.headers,
      perMessageDeflate: false,
    });
    this.#queue = new LiveResponseBuffer<LlmResponse>({
      highWaterMark: endpoint.highWaterMark ?? 512,
      onHigh: () => this.#socket.pause(),
      onLow: () => this.#socket.resume(),
    });
    this.#closed = new Promise((resolve) => this.#socket.once('close', () => resolve()));
    this.#socket.on('unexpected-response', (request, response) => {
      void upgradeRefused(this.#where, response).then((error) => this.#fail(error));
    });
    this.#socket.once('open', () => {
      this.#upgraded = true;
    });
    this.#socket.on('error', (cause) => {
      this.#fail(socketError(this.#where, endpoint.url, this.#upgraded, cause));
    });
    this.#socket.on('message', (data, isBinary) => this.#onFrame(data, isBinary));
    this.#socket.on('close', (code, reason) => this.#onClose(code, reason.toString()));
  }

  /**
   * Opens a connection and configures its session.
   *
   * @throws ModelApiError when the upgrade is refused (401 bad key, 429, 5xx), ModelConnectionError
   * when the server cannot be reached, ModelTimeoutError when `session.created` / `session.updated`
   * do not arrive within `connectTimeoutMs`, ModelStreamError for an `error` event, a malformed
   * frame or a close during the handshake, and the signal's reason when it aborts.
   */
  static async open(
    endpoint: RealtimeEndpoint,
    session: RealtimeSessionConfig,
    options: {
      outputTranscription: boolean;
      /** Whether user activity interrupts the model (`activityHandling` not `NO_INTERRUPTION`). */
      interrupts: boolean;
      signal?: AbortSignal | undefined;
    },
  ): Promise<OpenAIRealtimeConnection> {
    options.signal?.throwIfAborted();
    const connection = new OpenAIRealtimeConnection(
      endpoint,
      session,
      options.outputTranscription,
      options.interrupts,
    );
    await connection.#opened(options.signal);
    return connection;
  }

  get #where(): { provider: string; model: string } {
    return { provider: this.#endpoint.provider, model: this.#endpoint.model };
  }

  #opened(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#handshake = { resolve, reject };
      this.#timer = setTimeout(() => {
        this.#fail(
          new ModelTimeoutError({
            ...this.#where,
            timeoutMs: this.#endpoint.connectTimeoutMs,
            phase: 'response',
          }),
        );
      }, this.#endpoint.connectTimeoutMs);
      if (signal) {
        this.#signal = signal;
        signal.addEventListener('abort', this.#onAbort, { once: true });
      }
    });
  }

  async sendHistory(history: readonly Content[]): Promise<void> {
    const events: RealtimeClientEvent[] = [];
    for (const content of history) {
      for (const item of toRealtimeItems(content, this.#ids))
        events.push({ type: 'conversation.item.create', item });
    }
    for (const event of events) await this.#send(event);
  }

  async sendContent(content: Content): Promise<void> {
    const items = toRealtimeItems(content, this.#ids);
    if (items.length === 0) return;
    const outputs: string[] = [];
    for (const item of items) {
      if (item.type === 'function_call_output') outputs.push(item.call_id);
      await this.#send({ type: 'conversation.item.create', item });
    }
    // Function outputs: the model goes on once every call of its turn is answered.
    if (outputs.length > 0 && !this.#mapper.answered(outputs)) return;
    for (const event of this.#mapper.requestResponse()) await this.#send(event);
  }

  async sendRealtime(input: LiveRealtimeInput): Promise<void> {
    if ('blob' in input) {
      const event = this.#input.toEvent(input.blob);
      if (event) await this.#send(event);
      return;
    }
    // Manual activity signals only mean something without server VAD.
    if (!this.#manual) return;
    if ('activityStart' in input) {
      if (this.#interrupts) {
        const { responses, send } = this.#mapper.interrupt();
        for (const event of send) await this.#send(event);
        for (const response of responses) this.#queue.push(response);
      }
      this.#input.cleared();
      await this.#send({ type: 'input_audio_buffer.clear' });
      return;
    }
    if (this.#input.bufferedBytes === 0) return;
    this.#input.cleared();
    await this.#send({ type: 'input_audio_buffer.commit' });
    for (const event of this.#mapper.requestResponse()) await this.#send(event);
  }

  receive(): AsyncIterable<LlmResponse> {
    return this.#queue;
  }

  async close(): Promise<void> {
    if (this.#state !== 'closed') {
      this.#finish();
      this.#queue.end();
      this.#shutdown(1000);
    }
    await this.#closed;
  }

  #send(event: RealtimeClientEvent): Promise<void> {
    if (this.#state !== 'open' || this.#socket.readyState !== WebSocket.OPEN) {
      if (this.#failure !== undefined) return Promise.reject(this.#failure);
      return Promise.reject(
        new ModelStreamError({
          ...this.#where,
          kind: 'interrupted',
          message: `cannot send ${event.type}: the live connection is closed`,
          retryable: false,
        }),
      );
    }
    return new Promise((resolve, reject) => {
      this.#socket.send(JSON.stringify(event), (error) => {
        if (!error) return resolve();
        reject(
          new ModelStreamError({
            ...this.#where,
            kind: 'interrupted',
            message: `sending ${event.type} failed: ${error.message}`,
            cause: error,
          }),
        );
      });
    });
  }

  #onFrame(data: RawData, isBinary: boolean): void {
    if (this.#state === 'closed') return;
    if (this.#state === 'open' && !isBinary && Buffer.isBuffer(data)) {
      // An audio chunk (nearly every frame while the model speaks): read from its bytes.
      const delta = readAudioDelta(data, REALTIME_OUTPUT_AUDIO_MIME_TYPE);
      if (delta) return this.#mapped(this.#mapper.map(delta.event, delta.blob));
    }
    const text = Array.isArray(data) ? Buffer.concat(data).toString() : data.toString();
    let event: RealtimeServerEvent;
    try {
      event = JSON.parse(text) as RealtimeServerEvent;
    } catch (cause) {
      return this.#fail(malformedFrame(this.#where, text, cause));
    }
    if (isBinary || typeof event !== 'object' || event === null || typeof event.type !== 'string')
      return this.#fail(malformedFrame(this.#where, text));
    if (event.type === 'error') {
      if (BENIGN_REALTIME_ERROR_CODES.has(event.error?.code ?? '')) return;
      return this.#fail(errorEvent(this.#where, event.error));
    }
    if (this.#state === 'connecting') return this.#onHandshakeEvent(event);
    this.#mapped(this.#mapper.map(event));
  }

  #mapped({ responses, send }: MappedEvent): void {
    for (const response of responses) this.#queue.push(response);
    for (const next of send) void this.#send(next).catch((error: unknown) => this.#fail(error));
  }

  #onHandshakeEvent(event: RealtimeServerEvent): void {
    if (event.type === 'session.created') {
      this.#socket.send(JSON.stringify({ type: 'session.update', session: this.#session }));
    } else if (event.type === 'session.updated') {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#state = 'open';
      this.#handshake?.resolve();
      this.#handshake = undefined;
    }
  }

  #onClose(code: number, reason: string): void {
    if (this.#state === 'closed') return;
    // A clean close by the server ends the stream; any other close is a failure.
    if (code === 1000 && this.#state === 'open') {
      this.#finish();
      this.#queue.end();
      return;
    }
    this.#fail(closedByServer(this.#where, code, reason));
  }

  #abort(): void {
    if (this.#state === 'connecting') {
      this.#fail(this.#signal?.reason);
      return;
    }
    void this.close();
  }

  /** Ends the connection with `error` (first failure wins): the handshake or the reader sees it. */
  #fail(error: unknown): void {
    if (this.#state === 'closed') return;
    this.#failure = error;
    const handshake = this.#handshake;
    this.#finish();
    if (handshake) handshake.reject(error);
    else this.#queue.fail(error);
    this.#shutdown(undefined);
  }

  #finish(): void {
    this.#state = 'closed';
    this.#handshake = undefined;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#signal?.removeEventListener('abort', this.#onAbort);
  }

  /** Closes the socket politely (`code`) when open, else destroys it; never waits forever. */
  #shutdown(code: number | undefined): void {
    const socket = this.#socket;
    if (socket.readyState === WebSocket.CLOSED) return;
    if (code !== undefined && socket.readyState === WebSocket.OPEN) {
      socket.resume();
      socket.close(code);
      const timer = setTimeout(() => socket.terminate(), this.#endpoint.closeTimeoutMs);
      timer.unref();
      socket.once('close', () => clearTimeout(timer));
      return;
    }
    socket.terminate();
  }
}
