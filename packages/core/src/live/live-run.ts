import type { LlmAgent } from '../agents/llm-agent';
import { getFunctionCalls, getText, type Content, type FunctionCall } from '../content';
import type { RunConfig } from '../context/run-config';
import { LiveConnectionLostError } from '../errors/live-connection-lost-error';
import { LiveNotSupportedError } from '../errors/live-not-supported-error';
import { createEvent, type Event } from '../events';
import { answersFunction } from '../events/answered-requests';
import {
  confirmationsToResume,
  requestConfirmations,
  resumeConfirmedCalls,
} from '../flow/confirmation-flow';
import { REQUEST_CREDENTIAL_FUNCTION_NAME } from '../flow/credential-request';
import { requestCredentials } from '../flow/credential-flow';
import { executeFunctionCalls } from '../flow/execute-tools';
import { modelResponseEvent } from '../flow/flow-events';
import {
  filterModelEvent,
  filterUserMessage,
  inputRejectedEvent,
  policiesFor,
} from '../flow/policy-hooks';
import type { ResolvedTools } from '../flow/resolve-tools';
import { unlessAborted } from '../flow/unless-aborted';
import type { InvocationContext } from '../invocation/invocation-context';
import type { LiveConnection, LlmResponse } from '../models';
import { REQUEST_CONFIRMATION_FUNCTION_NAME } from '../policies/confirmation';
import type { LiveBlobScope } from './live-blob-recorder';
import { LiveBlobRecorder } from './live-blob-recorder';
import { LiveEventChannel } from './live-event-channel';
import type { LiveRequest } from './live-request';
import { LiveRequestQueue } from './live-request-queue';
import { DIRECT_READER, LiveResponseBuffer } from './live-response-buffer';
import { LiveResponseMapper } from './live-response-mapper';
import type { LiveEventSource } from './live-transcript';
import { openLiveConnection } from './open-live-connection';

/** Settings of one {@link LiveRun}. */
export interface LiveRunOptions {
  /** The invocation's root context (its signal aborts everything of the run). */
  ctx: InvocationContext;
  agent: LlmAgent;
  branch: string | undefined;
  runConfig: RunConfig;
  liveRequests: AsyncIterable<LiveRequest>;
  /** A stored resumption handle to continue from (only used with `sessionResumption`). */
  handle: string | undefined;
  maxReconnectAttempts: number;
  /** Where `saveLiveBlob` saves, when on. */
  blobScope: LiveBlobScope | undefined;
  /** Ends the run (closes the connection, wakes every task): the run's abort controller. */
  abort: () => void;
}

/** Events held before the model receiver waits for the consumer. */
const CHANNEL_CAPACITY = 64;

/**
 * One live invocation: a connection to the model of the current agent, a sender task
 * forwarding the user's requests to it, a receiver task turning its responses into events, tool
 * calls running beside them. Every event goes through one channel, read by {@link events}, which
 * stores (unless partial) and yields each one in arrival order: the session has one writer.
 */
export class LiveRun {
  readonly channel = new LiveEventChannel(CHANNEL_CAPACITY);
  agent: LlmAgent;
  agentCtx: InvocationContext;
  #tools!: ResolvedTools;
  #connection: LiveConnection | undefined;
  /** Resolves with the next connection when the current one is being replaced. */
  #nextConnection = deferred<LiveConnection | undefined>();
  #handle: string | undefined;
  /** The user closed the queue, or the run is aborted: the connection's end is expected. */
  #closing = false;
  #goAway = false;
  #filteringAgent: LlmAgent | undefined;
  #filters = false;
  /** Reconnections that failed in a row (a connection that delivered a response resets it). */
  #failures = 0;
  #transferTo: LlmAgent | undefined;
  readonly #tasks = new Set<Promise<void>>();
  #receiver: Promise<void> | undefined;
  #receiverTracked: Promise<void> | undefined;
  /** Tool calls (and resumed confirmations) in flight: the run ends after them. */
  readonly #toolTasks = new Set<Promise<void>>();
  readonly #mapper: LiveResponseMapper;
  readonly #inputBlobs: LiveBlobRecorder | undefined;
  #sourceOf: (LiveEventSource & { ctx: InvocationContext }) | undefined;
  /** The current connection delivered a response. */
  #received = false;
  /** Room in the channel that a direct read (see #readDirect) is waiting for. */
  #blocked: Promise<void> | undefined;

  constructor(private readonly options: LiveRunOptions) {
    this.agent = options.agent;
    this.agentCtx = options.ctx.createChild({ agent: options.agent, branch: options.branch });
    this.#handle = options.runConfig.sessionResumption ? options.handle : undefined;
    this.#inputBlobs = options.blobScope && new LiveBlobRecorder(options.blobScope, 'input');
    this.#mapper = new LiveResponseMapper({
      source: () => this.#source(),
      modelEvent: (response) =>
        modelResponseEvent(this.agentCtx, this.agent.name, response, undefined, this.#tools.byName),
      outputBlobs: options.blobScope && new LiveBlobRecorder(options.blobScope, 'output'),
      inputBlobs: this.#inputBlobs,
    });
  }

  get #signal(): AbortSignal {
    return this.options.ctx.signal;
  }

  /** Open the first connection and start the sender and receiver. */
  async start(): Promise<void> {
    this.#signal.addEventListener('abort', this.#onAbort, { once: true });
    this.#connection = await this.#connect();
    if (this.#signal.aborted) return this.#onAbort();
    this.#receiver = this.#receive();
    this.#spawn(this.#receiver);
    this.#spawn(this.#send());
  }

  /**
   * Stop everything: close the connection, wait for the tasks (they end on the abort). The
   * receiver is not waited for: the connection's `close()` ends its `receive()` (the
   * `LiveConnection` contract), and one per abort listener costs less than guarding every frame.
   */
  async close(): Promise<void> {
    this.#closing = true;
    this.options.abort();
    this.#onAbort();
    this.#signal.removeEventListener('abort', this.#onAbort);
    await this.#connection?.close().catch(() => undefined);
    for (;;) {
      const waiting = [...this.#tasks].filter((task) => task !== this.#receiverTracked);
      if (waiting.length === 0) break;
      await Promise.allSettled(waiting);
    }
  }

  /** The run is aborted: close the connection, end the channel and the user's queue. */
  readonly #onAbort = (): void => {
    this.#closing = true;
    this.channel.end();
    this.#nextConnection.resolve(undefined);
    void this.#connection?.close().catch(() => undefined);
    const requests = this.options.liveRequests;
    if (requests instanceof LiveRequestQueue) requests.close();
  };

  /** Who the run's events are by now: one object per agent context, not one per event. */
  #source(): LiveEventSource {
    const ctx = this.agentCtx;
    let source = this.#sourceOf;
    if (source?.ctx !== ctx || source.agentName !== this.agent.name) {
      source = {
        ctx,
        invocationId: this.options.ctx.invocationId,
        agentName: this.agent.name,
        branch: ctx.branch,
      };
      this.#sourceOf = source;
    }
    return source;
  }

  #spawn(task: Promise<void>, tool = false): void {
    const tracked = task.catch((error: unknown) => this.channel.fail(error));
    if (task === this.#receiver) this.#receiverTracked = tracked;
    this.#tasks.add(tracked);
    if (tool) this.#toolTasks.add(tracked);
    void tracked.finally(() => {
      this.#tasks.delete(tracked);
      this.#toolTasks.delete(tracked);
    });
  }

  /** Queue `event` (through the output filters); a promise only to wait for room or a filter. */
  #push(event: Event, afterCommit?: (stored: Event) => void): Promise<void> | undefined {
    if (event.author === 'user' || !event.content || !this.#filtering()) {
      return this.channel.push(afterCommit ? { event, afterCommit } : { event });
    }
    return this.#filter(event).then((shown) =>
      this.channel.push(afterCommit ? { event: shown, afterCommit } : { event: shown }),
    );
  }

  /**
   * A model event through the output filters of the policies, as in a turn (redaction); a stored
   * transcript keeps its transcription field equal to the filtered text.
   */
  async #filter(event: Event): Promise<Event> {
    const filtered = await filterModelEvent(this.agentCtx, this.agent, event);
    if (filtered === event || !filtered.outputTranscription) return filtered;
    return {
      ...filtered,
      outputTranscription: { ...filtered.outputTranscription, text: getText(filtered.content) },
    };
  }

  /** Whether output filters apply to the current agent (computed once per agent). */
  #filtering(): boolean {
    if (this.#filteringAgent !== this.agent) {
      this.#filteringAgent = this.agent;
      this.#filters = policiesFor(this.agentCtx, this.agent).some((policy) => policy.filterOutput);
    }
    return this.#filters;
  }

  /** Connect the current agent's model (see {@link openLiveConnection}). */
  async #connect(): Promise<LiveConnection> {
    const { connection, tools } = await openLiveConnection({
      agent: this.agent,
      agentCtx: this.agentCtx,
      runConfig: this.options.runConfig,
      handle: this.#handle,
    });
    this.#tools = tools;
    return connection;
  }

  /** Replace the connection (after a drop, a `goAway` or a transfer); bounded attempts. */
  async #reconnect(lastError: unknown, attempt: number): Promise<void> {
    const previous = this.#connection;
    this.#connection = undefined;
    await previous?.close().catch(() => undefined);
    if (attempt > this.options.maxReconnectAttempts) {
      throw new LiveConnectionLostError({ attempts: attempt - 1, cause: lastError });
    }
    const connection = await this.#connect();
    if (this.#closing) {
      // The run ended while this connection was opening: nobody will read it.
      await connection.close().catch(() => undefined);
      return;
    }
    this.#connection = connection;
    const waiting = this.#nextConnection;
    this.#nextConnection = deferred();
    waiting.resolve(connection);
  }

  /** The receiver: responses of each connection in turn, reconnecting when one ends early. */
  async #receive(): Promise<void> {
    for (;;) {
      const connection = this.#connection;
      if (!connection) break;
      let error: unknown;
      this.#received = false;
      const responses = connection.receive();
      const iterator = responses[Symbol.asyncIterator]();
      // A provider's own buffer hands a plain delta to the run at once (see #readDirect).
      const direct = responses instanceof LiveResponseBuffer ? responses : undefined;
      direct?.[DIRECT_READER](this.#readDirect);
      try {
        for (;;) {
          // No per-frame abort guard: an abort closes the connection, which ends `receive()`.
          const next = await iterator.next();
          if (next.done || this.#signal.aborted) break;
          this.#received = true;
          const blocked = this.#blocked;
          if (blocked) {
            this.#blocked = undefined;
            await blocked;
          }
          const handling = this.#handleResponse(next.value);
          if (handling) await handling;
          if (this.#goAway || this.#transferTo || this.#closing) break;
        }
      } catch (caught) {
        error = caught;
      } finally {
        direct?.[DIRECT_READER](undefined);
        void iterator.return?.()?.catch(() => undefined);
      }
      const blocked = this.#blocked;
      this.#blocked = undefined;
      if (blocked) await blocked;
      if (this.#closing || this.#signal.aborted) break;
      await this.#flushTurn();
      if (this.#received) this.#failures = 0;
      const target = this.#transferTo;
      if (target) {
        this.#transferTo = undefined;
        this.agent = target;
        this.agentCtx = this.options.ctx.createChild({ agent: target });
        this.#handle = undefined;
        await this.#reconnectWithRetries(undefined, true);
      } else if (this.#goAway) {
        this.#goAway = false;
        await this.#reconnectWithRetries(error, true);
      } else {
        await this.#reconnectWithRetries(error, false);
      }
    }
    await this.#flushTurn();
    // Calls still running when the user closed finish and are stored (an abort stops them).
    while (this.#toolTasks.size > 0 && !this.#signal.aborted) {
      await Promise.allSettled([...this.#toolTasks]);
    }
    this.channel.end();
  }

  /**
   * Reconnect until it works: every failed attempt counts against `maxReconnectAttempts`; with
   * `free` (a `goAway`, a transfer) the first attempt does not.
   */
  async #reconnectWithRetries(firstError: unknown, free: boolean): Promise<void> {
    let error = firstError;
    for (let uncounted = free; ; uncounted = false) {
      const attempt = uncounted ? 0 : ++this.#failures;
      try {
        await this.#reconnect(error, attempt);
        return;
      } catch (caught) {
        if (LiveConnectionLostError.isInstance(caught) || this.#closing) throw caught;
        if (LiveNotSupportedError.isInstance(caught)) throw caught;
        error = caught;
      }
    }
  }

  async #flushTurn(): Promise<void> {
    for (const event of await this.#mapper.flushAll()) await this.#push(event);
  }

  /**
   * The direct reader of the connection's buffer, called while the receiver waits for a
   * response: a plain delta (the hot path: an audio chunk) is mapped and queued right in the
   * provider socket's message handler, with no promise in between; `false` for anything else,
   * then read by the receiver's loop. When the channel is full, the loop waits for room before
   * its next response (responses queue in the buffer meanwhile, which pauses the socket).
   */
  readonly #readDirect = (response: LlmResponse): boolean => {
    if (this.#blocked || this.#goAway || this.#transferTo || this.#closing) return false;
    if (this.#signal.aborted || this.#filtering()) return false;
    const delta = this.#mapper.mapDelta(response);
    if (!delta) return false;
    this.#received = true;
    const pushing = this.channel.push({ event: delta });
    if (pushing) this.#blocked = pushing;
    return true;
  };

  /** A response into events; synchronous for a plain audio / text delta (the hot path). */
  #handleResponse(response: LlmResponse): Promise<void> | undefined {
    const delta = this.#mapper.mapDelta(response);
    if (delta) return this.#push(delta);
    return this.#handleMapped(response);
  }

  async #handleMapped(response: LlmResponse): Promise<void> {
    const mapped = await this.#mapper.map(response);
    if (mapped.handle !== undefined) this.#handle = mapped.handle;
    if (mapped.goAway) this.#goAway = true;
    for (const event of mapped.events) await this.#push(event);
    const callEvent = mapped.callEvent;
    if (callEvent) {
      // The call event, with ids and long-running marks, as a turn's flow stores it.
      const calls = getFunctionCalls(callEvent.content);
      await this.#push(callEvent);
      this.#spawn(this.#runCalls(calls), true);
    }
  }

  /** Run the model's calls with the turn-based path; answer the model while audio goes on. */
  async #runCalls(calls: FunctionCall[]): Promise<void> {
    const { agent, agentCtx } = this;
    const response = await executeFunctionCalls({
      agent,
      ctx: agentCtx,
      calls,
      tools: this.#tools.byName,
      parentSpanId: undefined,
    });
    if (!response || this.#signal.aborted) return;
    await this.#push(response);
    await this.#answerModel(response);
    // A confirmation or credential request pauses these calls only; the connection goes on.
    for (const post of [requestConfirmations, requestCredentials]) {
      for (const event of post({ agent, ctx: agentCtx, event: response }) ?? []) {
        await this.#push(event);
      }
    }
    const targetName = response.actions.transferToAgent;
    if (targetName) {
      const target = agent.rootAgent.findAgent(targetName);
      if (target && isLlmAgent(target)) {
        this.#transferTo = target;
        // Ends the receiver's read of this connection; it then connects the target.
        await this.#connection?.close().catch(() => undefined);
      }
    }
  }

  /** Send the function responses of `event` back on the connection. */
  async #answerModel(event: Event): Promise<void> {
    const parts = (event.content?.parts ?? []).filter((part) => part.functionResponse);
    if (parts.length === 0) return;
    await this.#sendWith((connection) => connection.sendContent({ role: 'user', parts }));
  }

  /**
   * Send on the current connection; when it fails (dropped), once more on the next one the
   * receiver opens. A send after the run closed is dropped.
   */
  async #sendWith(send: (connection: LiveConnection) => Promise<void>): Promise<void> {
    const connection = this.#connection ?? (await this.#nextConnection.promise);
    if (!connection || this.#closing) return;
    try {
      await send(connection);
    } catch {
      if (this.#closing) return;
      const next =
        this.#connection && this.#connection !== connection
          ? this.#connection
          : await this.#nextConnection.promise;
      if (next && !this.#closing) await send(next).catch(() => undefined);
    }
  }

  /** The sender: the user's requests, in order, to the connection. */
  async #send(): Promise<void> {
    const iterator = this.options.liveRequests[Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = await unlessAborted(iterator.next(), this.#signal);
        if (next === undefined || this.#closing) return;
        if (next.done) break;
        const request = next.value;
        if ('close' in request) break;
        if ('content' in request) await this.#sendUserContent(request.content);
        else if ('blob' in request) {
          this.#inputBlobs?.add(request.blob);
          await this.#sendWith((connection) => connection.sendRealtime({ blob: request.blob }));
        } else if ('activityStart' in request) {
          await this.#sendWith((connection) => connection.sendRealtime({ activityStart: true }));
        } else {
          await this.#sendWith((connection) => connection.sendRealtime({ activityEnd: true }));
          for (const event of await this.#mapper.flushInputBlobs()) await this.#push(event);
        }
      }
    } finally {
      void iterator.return?.()?.catch(() => undefined);
    }
    // The user closed: the connection's end is expected; the receiver then ends the run.
    this.#closing = true;
    await this.#connection?.close().catch(() => undefined);
    this.#nextConnection.resolve(undefined);
  }

  /**
   * A text turn (or a confirmation answer): stored as a user event (after input policies); a
   * message answers paused calls, resumed as in a turn, else it goes to the model.
   */
  async #sendUserContent(content: Content): Promise<void> {
    const { agent, agentCtx } = this;
    let message: Content = { ...content, role: content.role ?? 'user' };
    const policies = policiesFor(agentCtx, agent);
    if (policies.length > 0) {
      const verdict = await filterUserMessage(policies, agentCtx, message);
      if (verdict.outcome === 'reject') {
        await this.#push(
          createEvent({ invocationId: agentCtx.invocationId, author: 'user', content: message }),
        );
        await this.#push(inputRejectedEvent(agentCtx, agent.name, verdict.reason, verdict.policy));
        return;
      }
      message = verdict.content;
    }
    const answersPause =
      answersFunctionOf(message, REQUEST_CONFIRMATION_FUNCTION_NAME) ||
      answersFunctionOf(message, REQUEST_CREDENTIAL_FUNCTION_NAME);
    const event = createEvent({
      invocationId: agentCtx.invocationId,
      author: 'user',
      content: message,
    });
    if (!answersPause) {
      await this.#push(event);
      await this.#sendWith((connection) => connection.sendContent(message));
      return;
    }
    // Checked right after the answer is stored, before any other event: the consumer is the
    // session's only writer, so the answer is the invocation's latest user event then.
    await this.#push(event, () => {
      const answered = confirmationsToResume(agent, agentCtx);
      if (answered.length > 0) this.#spawn(this.#resume(agent, agentCtx, answered), true);
    });
  }

  async #resume(
    agent: LlmAgent,
    agentCtx: InvocationContext,
    answered: ReturnType<typeof confirmationsToResume>,
  ): Promise<void> {
    for await (const event of resumeConfirmedCalls(agent, agentCtx, answered)) {
      await this.#push(event);
      await this.#answerModel(event);
    }
  }
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}

/** A promise with its resolver (`Promise.withResolvers` is Node 22+). */
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

function answersFunctionOf(content: Content, name: string): boolean {
  return answersFunction({ content } as Event, name);
}

function isLlmAgent(agent: unknown): agent is LlmAgent {
  return typeof (agent as { resolveModel?: unknown }).resolveModel === 'function';
}
