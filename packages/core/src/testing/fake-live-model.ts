import type { Content } from '../content';
import type {
  GenerateOptions,
  LiveConnection,
  LiveConnectOptions,
  LiveRealtimeInput,
  LlmRequest,
  LlmResponse,
  Model,
} from '../models';
import { FakeModelError } from './fake-model-error';

/** What a {@link FakeLiveConnection} received from the runner, in order. */
export type FakeLiveMessage =
  | { type: 'history'; history: Content[] }
  | { type: 'content'; content: Content }
  | { type: 'realtime'; input: LiveRealtimeInput };

/**
 * One scripted step of a fake live connection: a response, or the connection dropping
 * (`receive()` ends, or throws `error`), as a provider's socket closing under the run.
 */
export type FakeLiveStep = LlmResponse | { drop: true; error?: Error };

/**
 * The model's reaction to a received message: the steps to play, in order (none: stay silent).
 * Called for every message, the history included.
 */
export type FakeLiveResponder = (
  message: FakeLiveMessage,
  connection: FakeLiveConnection,
) => readonly FakeLiveStep[] | undefined | Promise<readonly FakeLiveStep[] | undefined>;

/** Options of {@link FakeLiveModel}. */
export interface FakeLiveModelOptions {
  /** Model name (default `fake-live-model`). */
  name?: string;
  /** What the model answers to each message it receives (default: nothing). */
  respond?: FakeLiveResponder;
  /** Steps played as soon as connection number `index` (0-based) opens. */
  onConnect?: (connection: FakeLiveConnection) => readonly FakeLiveStep[] | undefined;
  /**
   * Answers turn-based calls (`Runner.run` on the same agent), e.g. a `FakeModel`. Unset: such a
   * call throws `FakeModelError` (`unsupported-call`).
   */
  turnBased?: Model;
  /** Make connection attempt number `attempt` (0-based, failed ones included) throw this error. */
  connectError?: (attempt: number) => Error | undefined;
}

/**
 * One connection of a {@link FakeLiveModel}: what it received (`received`), the request it was
 * opened with, whether it is closed, and `emit` / `drop` to play responses from a test.
 */
export class FakeLiveConnection implements LiveConnection {
  /** Everything the runner sent, in order. */
  readonly received: FakeLiveMessage[] = [];
  #closed = false;
  readonly #pending: FakeLiveStep[] = [];
  #wake: (() => void) | undefined;

  constructor(
    /** 0-based number of the connection on its model. */
    readonly index: number,
    /** The request the connection was opened with (`liveConnectConfig` included). */
    readonly request: LlmRequest,
    private readonly responder: FakeLiveResponder | undefined,
  ) {}

  /** Whether `close()` was called or the connection dropped. */
  get closed(): boolean {
    return this.#closed;
  }

  /** The text of every `content` message received (user turns and tool responses excluded). */
  get sentTexts(): string[] {
    return this.received.flatMap((message) =>
      message.type === 'content'
        ? message.content.parts.flatMap((part) => (part.text === undefined ? [] : [part.text]))
        : [],
    );
  }

  /** Play steps now (a test driving the model directly). */
  emit(...steps: FakeLiveStep[]): void {
    if (this.#closed) return;
    this.#pending.push(...steps);
    this.#notify();
  }

  /** Drop the connection: `receive()` throws `error`, or ends without one. */
  drop(error?: Error): void {
    this.emit(error ? { drop: true, error } : { drop: true });
  }

  async sendHistory(history: readonly Content[]): Promise<void> {
    await this.#record({ type: 'history', history: [...history] });
  }

  async sendContent(content: Content): Promise<void> {
    await this.#record({ type: 'content', content });
  }

  async sendRealtime(input: LiveRealtimeInput): Promise<void> {
    await this.#record({ type: 'realtime', input });
  }

  async *receive(): AsyncGenerator<LlmResponse, void> {
    for (;;) {
      const step = this.#pending.shift();
      if (step === undefined) {
        if (this.#closed) return;
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
        continue;
      }
      if ('drop' in step) {
        this.#closed = true;
        if (step.error) throw step.error;
        return;
      }
      yield step;
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#pending.length = 0;
    this.#notify();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  async #record(message: FakeLiveMessage): Promise<void> {
    if (this.#closed) {
      throw new FakeModelError({
        reason: 'unexpected-call',
        message: `FakeLiveConnection ${this.index} received a ${message.type} message after it closed.`,
      });
    }
    this.received.push(message);
    const steps = await this.responder?.(message, this);
    if (steps && steps.length > 0) this.emit(...steps);
  }
}

/**
 * A scripted live model for tests of `Runner.runLive` and the server's `/run_live`: no network.
 * Each `connectLive` opens a {@link FakeLiveConnection} (all kept in `connections`) that records
 * what it receives and answers through `respond`: audio and text deltas, transcriptions, tool
 * calls, `interrupted`, `turnComplete`, resumption handles, `goAway`, and dropped connections.
 *
 * @example
 * ```ts
 * const model = new FakeLiveModel({
 *   respond: (message) =>
 *     message.type === 'content'
 *       ? [{ outputTranscription: { text: 'Hi!', finished: true } }, { turnComplete: true }]
 *       : undefined,
 * });
 * const agent = new LlmAgent({ name: 'voice', model });
 * ```
 */
export class FakeLiveModel implements Model {
  readonly name: string;
  /** Every connection opened, in order. */
  readonly connections: FakeLiveConnection[] = [];
  /** Connection attempts, failed ones included. */
  connectAttempts = 0;

  constructor(private readonly options: FakeLiveModelOptions = {}) {
    this.name = options.name ?? 'fake-live-model';
  }

  /** Connections not closed yet (a finished run leaves none). */
  get openConnections(): FakeLiveConnection[] {
    return this.connections.filter((connection) => !connection.closed);
  }

  async *generate(request: LlmRequest, options: GenerateOptions): AsyncGenerator<LlmResponse> {
    if (this.options.turnBased) {
      yield* this.options.turnBased.generate(request, options);
      return;
    }
    throw new FakeModelError({
      reason: 'unsupported-call',
      message: `FakeLiveModel "${this.name}" only serves live runs (Runner.runLive).`,
    });
  }

  async connectLive(request: LlmRequest, options: LiveConnectOptions): Promise<LiveConnection> {
    const attempt = this.connectAttempts++;
    options.signal?.throwIfAborted();
    const error = this.options.connectError?.(attempt);
    if (error) throw error;
    const connection = new FakeLiveConnection(
      this.connections.length,
      request,
      this.options.respond,
    );
    this.connections.push(connection);
    const steps = this.options.onConnect?.(connection);
    if (steps && steps.length > 0) connection.emit(...steps);
    return connection;
  }
}
