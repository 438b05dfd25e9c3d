import type { IncomingMessage } from 'node:http';

import {
  LiveResponseBuffer,
  type Content,
  type LiveConnection,
  type LiveRealtimeInput,
  type LlmResponse,
} from '@adk/core';
import {
  isRetryableStatus,
  ModelApiError,
  ModelConnectionError,
  ModelStreamError,
  ModelTimeoutError,
} from '@adk/model-http';
import { WebSocket, type RawData } from 'ws';

import { parseGeminiError } from '../convert/parse-gemini-error';
import type {
  GeminiLiveClientMessage,
  GeminiLiveServerMessage,
  GeminiLiveSetup,
} from './gemini-live-wire';
import { liveCloseError } from './live-close-error';
import { LiveResponseReader } from './live-response-reader';
import { readAudioMessage } from './read-audio-message';
import { toContentMessages, toHistoryMessage, toRealtimeMessage } from './to-live-client-messages';

/** Options of {@link GeminiLiveConnection.open}. */
export interface GeminiLiveConnectionOptions {
  /** `ws(s)://.../BidiGenerateContent` with any query parameters. */
  url: string;
  headers: Record<string, string>;
  setup: GeminiLiveSetup;
  provider: string;
  /** Model name, for error messages. */
  model: string;
  /** Longest wait from connecting to `setupComplete`. */
  setupTimeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Responses buffered before the socket stops reading (back-pressure). Default 1024. */
  maxBufferedResponses?: number;
}

/** How long a closing handshake may take before the socket is destroyed. */
const CLOSE_GRACE_MS = 2000;

/**
 * One Gemini Live API connection (`BidiGenerateContent` over WebSocket). Open it with
 * {@link GeminiLiveConnection.open}, which resolves once the service answered `setup` with
 * `setupComplete`. See `LiveConnection` in `@adk/core` for the contract.
 */
export class GeminiLiveConnection implements LiveConnection {
  private readonly socket: WebSocket;
  private readonly reader = new LiveResponseReader();
  private readonly responses: LiveResponseBuffer<LlmResponse>;
  private readonly ready: Promise<void>;
  private readonly closed: Promise<void>;
  private settleReady: (error?: unknown) => void = () => {};
  private markClosed: () => void = () => {};
  private failure: unknown;
  private opened = false;
  private setupDone = false;
  private closing = false;
  private finished = false;
  private paused = false;
  private setupTimer: NodeJS.Timeout | undefined;
  private killTimer: NodeJS.Timeout | undefined;

  /**
   * Connects, sends `setup` and waits for `setupComplete`.
   *
   * @throws {ModelConnectionError} the service could not be reached.
   * @throws {ModelApiError} the WebSocket upgrade was refused with an HTTP status (401, 404...).
   * @throws {ModelStreamError} the service closed the connection during setup (a bad key or
   *   model: 1008; an invalid setup: 1007), with its close reason.
   * @throws {ModelTimeoutError} no `setupComplete` within `setupTimeoutMs`.
   * @throws the signal's reason when it aborts first.
   */
  static async open(options: GeminiLiveConnectionOptions): Promise<GeminiLiveConnection> {
    options.signal?.throwIfAborted();
    const connection = new GeminiLiveConnection(options);
    await connection.ready;
    return connection;
  }

  private constructor(private readonly options: GeminiLiveConnectionOptions) {
    const maxBuffered = options.maxBufferedResponses ?? 1024;
    this.responses = new LiveResponseBuffer<LlmResponse>({
      highWaterMark: maxBuffered,
      lowWaterMark: maxBuffered / 4,
      onHigh: () => {
        this.paused = true;
        this.socket.pause();
      },
      onLow: () => {
        this.paused = false;
        this.socket.resume();
      },
    });
    this.ready = new Promise<void>((resolve, reject) => {
      this.settleReady = (error) => (error === undefined ? resolve() : reject(error));
    });
    this.closed = new Promise<void>((resolve) => (this.markClosed = resolve));
    this.socket = new WebSocket(options.url, { headers: options.headers });
    this.setupTimer = setTimeout(() => {
      this.fail(
        new ModelTimeoutError({
          provider: options.provider,
          model: options.model,
          timeoutMs: options.setupTimeoutMs,
          phase: 'response',
        }),
      );
    }, options.setupTimeoutMs);
    options.signal?.addEventListener('abort', this.onAbort, { once: true });
    this.socket.on('open', () => {
      this.opened = true;
      this.socket.send(JSON.stringify({ setup: options.setup }));
    });
    this.socket.on('unexpected-response', (_request, response) => this.onRefused(response));
    this.socket.on('message', (data) => this.onMessage(data));
    this.socket.on('error', (error) => this.onError(error));
    this.socket.on('close', (code, reason) => this.onClose(code, reason.toString('utf8')));
  }

  async sendHistory(history: readonly Content[]): Promise<void> {
    const message = toHistoryMessage(history);
    if (message) await this.send(message);
  }

  async sendContent(content: Content): Promise<void> {
    for (const message of toContentMessages(content)) await this.send(message);
  }

  async sendRealtime(input: LiveRealtimeInput): Promise<void> {
    await this.send(toRealtimeMessage(input));
  }

  /** The responses, in order; one reader (a second one's first `next()` rejects). */
  receive(): AsyncIterable<LlmResponse> {
    return this.responses;
  }

  /** Closes the connection (code 1000) and resolves once the socket is closed. Idempotent. */
  close(): Promise<void> {
    if (!this.closing) {
      this.closing = true;
      this.shutdown(1000);
      this.responses.end();
    }
    return this.closed;
  }

  private async send(message: GeminiLiveClientMessage): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    if (this.closing || this.finished || this.socket.readyState !== WebSocket.OPEN) {
      throw this.streamError('interrupted', 'the live connection is closed', false);
    }
    await new Promise<void>((resolve, reject) => {
      this.socket.send(JSON.stringify(message), (error) =>
        error ? reject(this.streamError('interrupted', error.message, true, error)) : resolve(),
      );
    });
  }

  private onMessage(data: RawData): void {
    if (this.failure !== undefined || this.closing) return;
    const bytes = Array.isArray(data)
      ? Buffer.concat(data)
      : Buffer.isBuffer(data)
        ? data
        : Buffer.from(data);
    // The frame of nearly every message while the model speaks: read without JSON.parse.
    const audio = this.setupDone ? readAudioMessage(bytes) : undefined;
    if (audio) {
      this.responses.push({
        content: { role: 'model', parts: [{ inlineData: audio }] },
        partial: true,
      });
      return;
    }
    const text = bytes.toString('utf8');
    let message: GeminiLiveServerMessage;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new TypeError('not a JSON object');
      }
      message = parsed as GeminiLiveServerMessage;
    } catch (cause) {
      const error = new ModelStreamError({
        ...this.errorContext(),
        kind: 'malformed',
        message: 'a server message is not a JSON object',
        chunk: text,
        cause,
      });
      this.fail(error, 1007);
      return;
    }
    if (!this.setupDone && message.setupComplete) {
      this.setupDone = true;
      clearTimeout(this.setupTimer);
      this.settleReady();
    }
    for (const response of this.reader.read(message)) this.responses.push(response);
  }

  private onRefused(response: IncomingMessage): void {
    const status = response.statusCode ?? 0;
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let info: ReturnType<typeof parseGeminiError>;
      try {
        info = parseGeminiError(JSON.parse(body));
      } catch {
        info = undefined;
      }
      this.fail(
        new ModelApiError({
          provider: this.options.provider,
          model: this.options.model,
          status,
          retryable: isRetryableStatus(status),
          providerMessage: info?.message ?? (body.trim() || response.statusMessage),
          providerErrorType: info?.type,
          responseBody: body.slice(0, 4096),
        }),
      );
    };
    response.on('data', (chunk: Buffer) => {
      if (size < 4096) chunks.push(chunk);
      size += chunk.length;
    });
    response.once('end', finish);
    response.once('error', finish);
  }

  private onError(error: Error): void {
    if (this.closing) return;
    if (!this.opened) {
      const url = this.options.url.split('?')[0]!;
      this.fail(
        new ModelConnectionError({
          provider: this.options.provider,
          model: this.options.model,
          url,
          cause: error,
        }),
      );
    } else {
      this.fail(this.streamError('interrupted', error.message, true, error));
    }
  }

  private onClose(code: number, reason: string): void {
    this.finished = true;
    clearTimeout(this.setupTimer);
    clearTimeout(this.killTimer);
    this.options.signal?.removeEventListener('abort', this.onAbort);
    if (this.failure === undefined && !this.closing) {
      if (code !== 1000) {
        this.failure = liveCloseError({ ...this.errorContext(), code, reason });
      } else if (!this.setupDone) {
        this.failure = this.streamError('interrupted', 'closed before setupComplete', true);
      }
    }
    if (!this.setupDone) {
      this.settleReady(
        this.failure ?? this.streamError('interrupted', 'closed before setupComplete', false),
      );
    }
    if (this.failure !== undefined) this.responses.fail(this.failure);
    else this.responses.end();
    this.markClosed();
  }

  private readonly onAbort = () => {
    if (this.setupDone) {
      void this.close();
      return;
    }
    this.fail(this.options.signal?.reason);
  };

  /** Records the first failure, then closes the socket (its close event settles everything). */
  private fail(error: unknown, code = 1000): void {
    if (this.failure !== undefined || this.finished) return;
    this.failure = error;
    if (!this.setupDone) this.settleReady(error);
    this.shutdown(code);
    this.responses.fail(error);
  }

  private shutdown(code: number): void {
    clearTimeout(this.setupTimer);
    if (this.finished || this.killTimer) return;
    if (this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.terminate();
      return;
    }
    if (this.paused) this.socket.resume();
    this.socket.close(code);
    this.killTimer = setTimeout(() => this.socket.terminate(), CLOSE_GRACE_MS);
  }

  private errorContext() {
    return { provider: this.options.provider, model: this.options.model };
  }

  private streamError(
    kind: 'interrupted',
    message: string,
    retryable: boolean,
    cause?: unknown,
  ): ModelStreamError {
    return new ModelStreamError({ ...this.errorContext(), kind, message, retryable, cause });
  }
}
