import type { Content } from '../content';
import { createRunConfig } from '../context/run-config';
import { hasSubscribers } from '../diagnostics/channels';
import { InvalidArgumentError } from '../errors/invalid-argument-error';
import { createEvent, type Event } from '../events';
import { prefixedRandomUuid } from '../events/random-uuid';
import { filterUserMessage, inputRejectedEvent, policiesFor } from '../flow/policy-hooks';
import { resumedBranch } from '../history/find-caller';
import { withoutRewoundEvents } from '../history/rewound-events';
import type { InvocationContext } from '../invocation/invocation-context';
import type { ContextCacheConfig } from '../models/context-cache';
import type { PluginManager } from '../plugins/plugin-manager';
import { RunCallbacksPlugin } from '../plugins/run-callbacks-plugin';
import type { InputVerdict } from '../policies/evaluate-policies';
import {
  APPEND_EVENT_NOW,
  GET_SESSION_NOW,
  type DirectSessionCalls,
  inMemoryDirect,
} from '../sessions/in-memory-session-service';
import type { Session } from '../sessions/session';
import { dropTempDelta } from './commit-event';
import { earliestDeadline, type ConfirmationDeadlines } from './confirmation-deadlines';
import { findAgentToRun, findResumeEntry } from './find-agent-to-run';
import type { RunRequest } from './run-request';
import { publishRunEnd, publishRunError, publishRunStart } from './run-outcome';
import type { SessionLock } from './session-lock';
import { invocationContextFor, type ResumeHost } from './resume-invocation';
import { holdSession, type SessionHold, type SessionTurns } from './session-turns';
import { trackErrorEvent } from './unread-error-events';

/**
 * What a run needs of its {@link Runner}: what a resume needs, with the context cache and the
 * session lock always named, and the private parts a run is given.
 */
export interface RunHost extends ResumeHost {
  readonly contextCacheConfig: ContextCacheConfig | undefined;
  readonly sessionLock: SessionLock | undefined;
  /** Stores `event` through the `onEvent` plugins (see `commitEvent`). */
  commitEvent(ctx: InvocationContext, session: Session, event: Event): Promise<Event>;
  /** The session `getSession` did not find, created when `autoCreateSession` is on. */
  createMissing(userId: string, sessionId: string): Promise<Session>;
}

/** The result of a finished run (a new object each time, as an async generator's). */
function done(): IteratorReturnResult<void> {
  return { value: undefined, done: true };
}

/** What {@link RunEvents.begin} leads to when it hands out no event itself. */
type Next = 'agent' | 'complete';

/**
 * Where a run stands between two calls of its iterator:
 * - `new`: not started (`return()` and `throw()` end it without running anything);
 * - `event`: an event of the run's own (a policy's rejection, `beforeRun`'s answer) was handed
 *   out; what comes next is the end of the run;
 * - `agent`: an event of the agent was handed out; next is the agent's next event;
 * - `tail`: the `afterRun` replacement was handed out (the run has completed);
 * - `done`: finished.
 */
type Phase = 'new' | 'event' | 'agent' | 'tail' | 'done';

/**
 * The events of one `Runner.run`: what an `async function*` would do, written as an iterator.
 *
 * An async generator costs every event it passes on an `await` of the agent's next event, an
 * `await` of the yielded value and the promise of the caller's `next()`: measured on the ideal
 * floor of the benchmark, a pass-through async generator layer adds 2.5 KB of allocation and 18
 * promises to a turn of four events, this iterator 1 KB and 5 (docs/PERFORMANCE.md, issue 29).
 * Each event of the agent is handed on by one `then` of the agent's own `next()`; the start and
 * the end of the run (once per run) are plain async functions.
 *
 * It behaves as the async generator it replaces (the order of the hooks, the storage of each event
 * before it is handed out, turn-taking, abort and `break`, see `Runner.run`): `next()` calls made
 * while one is pending wait for it, `return()` after an event ends the run as `break` does (the
 * agent's generator is closed, `afterRun` plugins see what was handed out, the session's turn is
 * left), `throw()` after an event ends it as a failure (`onRunError` plugins, then the error).
 */
export class RunEvents implements AsyncGenerator<Event, void> {
  #phase: Phase = 'new';
  /** The pending call's promise, while one is pending: later calls wait for it. */
  #busy: Promise<unknown> | undefined;
  #hold: SessionHold | undefined;
  #plugins!: PluginManager;
  #ctx!: InvocationContext;
  #session!: Session;
  #direct: DirectSessionCalls | undefined;
  #agentEvents: AsyncGenerator<Event, void> | undefined;
  /** What `afterRun` plugins are shown: collected only when one of them is there to see it. */
  #runEvents: Event[] | undefined;
  #startTime = 0;
  #eventCount = 0;
  /** 'open' until the run completes or fails (still 'open' when it was stopped early). */
  #state: 'open' | 'completed' | 'failed' = 'open';
  // The handlers of the pending call, made once per run (assigned here rather than as class
  // fields, which some compilers wrap in a naming helper on every instance).
  readonly #onAgentEvent: (
    result: IteratorResult<Event, void>,
  ) => IteratorResult<Event, void> | Promise<IteratorResult<Event, void>>;
  readonly #onAgentError: (error: unknown) => Promise<never>;
  readonly #clearBusy: () => void;

  constructor(
    private readonly host: RunHost,
    private readonly turns: SessionTurns,
    private readonly deadlines: ConfirmationDeadlines | undefined,
    private readonly request: RunRequest,
  ) {
    this.#onAgentEvent = (result) => {
      this.#busy = undefined;
      return this.#agentEvent(result);
    };
    this.#onAgentError = (error) => {
      this.#busy = undefined;
      return this.#track(this.#fail(error, false));
    };
    this.#clearBusy = () => {
      this.#busy = undefined;
    };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** What `Object.prototype.toString` and `util.inspect` call it: what it stands for. */
  get [Symbol.toStringTag](): string {
    return 'AsyncGenerator';
  }

  next(): Promise<IteratorResult<Event, void>> {
    if (this.#busy !== undefined) return this.#afterBusy(() => this.next());
    switch (this.#phase) {
      case 'agent': {
        if (this.request.signal?.aborted) return this.#track(this.#stopAgent(undefined));
        // The hot path: one `then` per event. `#busy` is cleared by the handlers.
        const pending = this.#agentEvents!.next().then(this.#onAgentEvent, this.#onAgentError);
        this.#busy = pending;
        return pending;
      }
      case 'new':
        this.#phase = 'done';
        return this.#track(this.#start());
      case 'event':
        return this.#settled(this.#complete());
      case 'tail':
        this.#phase = 'done';
        return this.#track(this.#ended(done));
      case 'done':
        return Promise.resolve(done());
    }
  }

  return(value?: void | PromiseLike<void>): Promise<IteratorResult<Event, void>> {
    if (this.#busy !== undefined) return this.#afterBusy(() => this.return(value));
    const phase = this.#phase;
    this.#phase = 'done';
    const returned = (): Promise<IteratorReturnResult<void>> =>
      Promise.resolve(value).then((result) => ({ value: result, done: true }));
    switch (phase) {
      case 'new':
      case 'done':
        return returned();
      case 'agent':
        return this.#track(this.#stopAgent(returned));
      case 'event':
      case 'tail':
        return this.#track(this.#ended(returned));
    }
  }

  throw(error: unknown): Promise<IteratorResult<Event, void>> {
    if (this.#busy !== undefined) return this.#afterBusy(() => this.throw(error));
    const phase = this.#phase;
    this.#phase = 'done';
    if (phase === 'new' || phase === 'done') return Promise.reject(error);
    if (phase === 'agent') {
      // As a `for await` left by an exception: the agent's generator is closed, whatever it says.
      const closing = this.#agentEvents!.return(undefined).then(
        () => undefined,
        () => undefined,
      );
      return this.#track(closing.then(() => this.#fail(error, false)));
    }
    return this.#track(this.#fail(error, false));
  }

  /** {@link #end}, then `result`. */
  async #ended<T>(result: () => T | Promise<T>): Promise<T> {
    await this.#end();
    return result();
  }

  /** `result` as a promise, tracked as the pending call when it is one. */
  #settled<T>(result: T | Promise<T>): Promise<T> {
    return result instanceof Promise ? this.#track(result) : Promise.resolve(result);
  }

  /** `pending` as the pending call: later calls wait until it settles. */
  #track<T>(pending: Promise<T>): Promise<T> {
    this.#busy = pending;
    // Cleared whatever the pending call was: a call queued behind it starts only after this.
    pending.then(this.#clearBusy, this.#clearBusy);
    return pending;
  }

  /** `call` once the pending call has settled (however it did). */
  #afterBusy<T>(call: () => Promise<T>): Promise<T> {
    return this.#busy!.then(call, call);
  }

  /** The agent handed out an event (or finished): stored, then handed on. */
  #agentEvent(
    result: IteratorResult<Event, void>,
  ): IteratorResult<Event, void> | Promise<IteratorResult<Event, void>> {
    if (result.done === true) {
      const completing = this.#complete();
      return completing instanceof Promise ? this.#track(completing) : completing;
    }
    try {
      const event = result.value;
      this.#eventCount++;
      // A pause with a deadline: the Runner denies it at the deadline if nobody answered.
      if (event.longRunningToolIds !== undefined && this.deadlines && !event.partial) {
        const deadline = earliestDeadline(event);
        if (deadline !== undefined)
          this.deadlines.watch(this.request.userId, this.request.sessionId, deadline);
      }
      if (this.#plugins.has('onEvent')) return this.#track(this.#commitThroughPlugins(event));
      if (!event.partial) {
        if (this.#direct) {
          this.#direct[APPEND_EVENT_NOW]({ session: this.#session, event });
        } else {
          return this.#track(this.#append(event));
        }
        dropTempDelta(event);
        this.#runEvents?.push(event);
      }
      this.#phase = 'agent';
      return this.#handOut(event);
    } catch (error) {
      return this.#track(this.#fail(error, true));
    }
  }

  /** The iterator result for a stored event (an error event is tracked until it is read). */
  #handOut(event: Event): IteratorResult<Event, void> {
    return {
      value: event.errorCode === undefined ? event : trackErrorEvent(event, this.host.appName),
      done: false,
    };
  }

  async #commitThroughPlugins(event: Event): Promise<IteratorResult<Event, void>> {
    try {
      const committed = await this.host.commitEvent(this.#ctx, this.#session, event);
      if (this.#runEvents && !committed.partial) this.#runEvents.push(committed);
      this.#phase = 'agent';
      return this.#handOut(committed);
    } catch (error) {
      return this.#fail(error, true);
    }
  }

  /** {@link #agentEvent} with a session service of the caller's: the append is awaited. */
  async #append(event: Event): Promise<IteratorResult<Event, void>> {
    try {
      await this.host.sessionService.appendEvent({ session: this.#session, event });
      dropTempDelta(event);
      this.#runEvents?.push(event);
      this.#phase = 'agent';
      return this.#handOut(event);
    } catch (error) {
      return this.#fail(error, true);
    }
  }

  /**
   * The caller stopped after an event of the agent (`return()`, with `result`), or the run was
   * aborted (`undefined`): the agent's generator is closed, then the run ends (as stopped early,
   * or as completed when aborted).
   */
  async #stopAgent(
    returned: (() => Promise<IteratorReturnResult<void>>) | undefined,
  ): Promise<IteratorResult<Event, void>> {
    this.#phase = 'done';
    try {
      await this.#agentEvents!.return(undefined);
    } catch (error) {
      return this.#fail(error, false);
    }
    if (returned) {
      await this.#end();
      return returned();
    }
    return await this.#complete();
  }

  /**
   * The start of the run, up to its first event: the session's turn, the session, the user's
   * message and its hooks and policies, then the agent (or the run's own answer).
   */
  async #start(): Promise<IteratorResult<Event, void>> {
    const { host, request } = this;
    if (
      !request.newMessage ||
      !Array.isArray(request.newMessage.parts) ||
      request.newMessage.parts.length === 0
    ) {
      throw new InvalidArgumentError({
        message: 'newMessage must have at least one part.',
        argument: 'newMessage',
      });
    }
    const runConfig = createRunConfig(request.runConfig);
    const { signal } = request;
    if (signal?.aborted) return done();
    const sessionKey = {
      appName: host.appName,
      userId: request.userId,
      sessionId: request.sessionId,
    };
    // One run at a time per session: a second one waits here, then reads what the first stored;
    // with a session lock, runs of other processes too.
    const holding = holdSession(this.turns, host.sessionLock, sessionKey, signal);
    const hold = holding instanceof Promise ? await holding : holding;
    if (hold === undefined) return done();
    this.#hold = hold;
    let ctx: InvocationContext;
    try {
      // This run's callbacks join the plugins as the last one; the Runner's own set stays as is.
      const plugins = request.callbacks
        ? host.plugins.with([new RunCallbacksPlugin(request.callbacks)])
        : host.plugins;
      this.#plugins = plugins;
      const initializing = plugins.initialize();
      if (initializing) await initializing;
      // An in-memory store is called synchronously: no promise and no await per stored event.
      const direct = inMemoryDirect(host.sessionService);
      this.#direct = direct;
      // The session usually exists: read directly, one async frame less than a helper.
      const session =
        (direct
          ? direct[GET_SESSION_NOW](sessionKey)
          : await host.sessionService.getSession(sessionKey)) ??
        (await host.createMissing(request.userId, request.sessionId));
      this.#session = session;
      ctx = invocationContextFor(
        host,
        request.invocationId ?? prefixedRandomUuid('e-'),
        session,
        runConfig,
        signal,
        plugins,
      );
      this.#ctx = ctx;
      this.#startTime = performance.now();
      if (hasSubscribers('runStart')) publishRunStart(ctx, host.appName, this.#startTime);
      this.#runEvents = plugins.has('afterRun') ? [] : undefined;
    } catch (error) {
      await this.#leave();
      throw error;
    }
    let first: IteratorResult<Event, void> | Next;
    try {
      const beginning = this.#begin(ctx);
      first = beginning instanceof Promise ? await beginning : beginning;
    } catch (error) {
      return this.#fail(error, false);
    }
    if (first === 'complete') return await this.#complete();
    if (first !== 'agent') return first;
    // Not awaited here: this function's frame is not kept alive while the agent works on its
    // first event (with 1,000 turns in flight, every young collection copies what they keep).
    return this.#agentEvents!.next().then(this.#onAgentEvent, this.#onAgentError);
  }

  /**
   * {@link #start} once the run has its context: the user's message, stored, then what comes
   * next. Synchronous without the hooks and policies that make it wait (most runs).
   */
  #begin(
    ctx: InvocationContext,
  ): IteratorResult<Event, void> | Next | Promise<IteratorResult<Event, void> | Next> {
    const { host, request } = this;
    const plugins = this.#plugins;
    const direct = this.#direct;
    if (
      direct === undefined ||
      plugins.has('onUserMessage') ||
      plugins.has('beforeRun') ||
      policiesFor(ctx, host.agent).length > 0
    ) {
      return this.#beginWithHooks(ctx);
    }
    ctx.userContent = { ...request.newMessage, role: request.newMessage.role ?? 'user' };
    const userEvent = createEvent({
      invocationId: ctx.invocationId,
      author: 'user',
      content: ctx.userContent,
      actions: request.stateDelta ? { stateDelta: request.stateDelta } : undefined,
    });
    direct[APPEND_EVENT_NOW]({ session: this.#session, event: userEvent });
    return this.#startAgent(ctx);
  }

  /** {@link #begin} with hooks or policies on the user's message, or a store that is awaited. */
  async #beginWithHooks(ctx: InvocationContext): Promise<IteratorResult<Event, void> | Next> {
    const { host, request } = this;
    const plugins = this.#plugins;
    const session = this.#session;
    const message: Content = { ...request.newMessage, role: request.newMessage.role ?? 'user' };
    // Hooks and policies nobody set are skipped without an await.
    ctx.userContent = plugins.has('onUserMessage')
      ? ((await plugins.onUserMessage(ctx, {
          invocationContext: ctx,
          userMessage: message,
        })) ?? message)
      : message;
    const policies = policiesFor(ctx, host.agent);
    // No policies (most runs): nothing to filter, and no verdict object.
    const verdict: InputVerdict | undefined =
      policies.length === 0 ? undefined : await filterUserMessage(policies, ctx, ctx.userContent);
    if (verdict?.outcome === 'allow') ctx.userContent = verdict.content;
    const userEvent = createEvent({
      invocationId: ctx.invocationId,
      author: 'user',
      content: ctx.userContent,
      actions: request.stateDelta ? { stateDelta: request.stateDelta } : undefined,
    });
    if (this.#direct) this.#direct[APPEND_EVENT_NOW]({ session, event: userEvent });
    else await host.sessionService.appendEvent({ session, event: userEvent });
    const early =
      verdict?.outcome === 'reject' || !plugins.has('beforeRun')
        ? undefined
        : await plugins.beforeRun(ctx, { invocationContext: ctx });
    if (verdict?.outcome === 'reject') {
      // A policy rejected the message: no agent runs, the reason is the answer.
      this.#eventCount++;
      const author = findAgentToRun(session, host.agent).name;
      const rejection = await host.commitEvent(
        ctx,
        session,
        inputRejectedEvent(ctx, author, verdict.reason, verdict.policy),
      );
      this.#runEvents?.push(rejection);
      this.#phase = 'event';
      return { value: rejection, done: false };
    }
    if (early) {
      const event = createEvent({
        invocationId: ctx.invocationId,
        author: host.agent.name,
        content: { ...early, role: early.role ?? 'model' },
      });
      this.#eventCount++;
      const committed = await host.commitEvent(ctx, session, event);
      this.#runEvents?.push(committed);
      this.#phase = 'event';
      return { value: committed, done: false };
    }
    return this.#startAgent(ctx);
  }

  /** The agent that answers, started (its first event is read by the caller). */
  #startAgent(ctx: InvocationContext): Next {
    const { host, request } = this;
    const session = this.#session;
    if (request.signal?.aborted) return 'complete';
    const caller = findAgentToRun(session, host.agent);
    const branch = resumedBranch(withoutRewoundEvents(session.events), caller.name);
    // A call paused inside Sequential/Loop agents resumes them from `caller` on. Only a
    // resumed caller can be under them (a routable agent has LlmAgent ancestors only).
    const agent = findResumeEntry(caller);
    if (agent !== caller) ctx.resumeFrom = caller;
    this.#agentEvents = agent.run(ctx.createChild({ agent, branch }));
    return 'agent';
  }

  /**
   * The run completed (the agent finished, or the run was aborted): `afterRun` plugins, and the
   * event of their replacement answer when they give one; else the end. Without `afterRun`
   * plugins (most runs), synchronous unless the session's turn takes a promise to leave.
   */
  #complete(): IteratorResult<Event, void> | Promise<IteratorResult<Event, void>> {
    this.#phase = 'done';
    this.#state = 'completed';
    if (this.#runEvents) return this.#afterRun(this.#runEvents);
    const ending = this.#end();
    return ending === undefined ? done() : ending.then(done);
  }

  /** {@link #complete} with `afterRun` plugins. */
  async #afterRun(runEvents: Event[]): Promise<IteratorResult<Event, void>> {
    const ctx = this.#ctx;
    try {
      const replacement = await this.#plugins.afterRun(ctx, {
        invocationContext: ctx,
        events: runEvents,
        replacement: undefined,
      });
      if (replacement && !this.request.signal?.aborted) {
        // The transformed result: one more event, by the agent that answered.
        const answered = runEvents.findLast((event) => event.author !== 'user');
        const event = createEvent({
          invocationId: ctx.invocationId,
          author: answered?.author ?? this.host.agent.name,
          content: { ...replacement, role: replacement.role ?? 'model' },
        });
        this.#eventCount++;
        const committed = await this.host.commitEvent(ctx, this.#session, event);
        this.#phase = 'tail';
        return { value: committed, done: false };
      }
    } catch (error) {
      return this.#fail(error, false);
    }
    await this.#end();
    return done();
  }

  /**
   * The run failed with `error`: `onRunError` plugins, then the error (after the session's turn is
   * left). `closeAgent`: the agent's generator is still open (the error is the Runner's own, e.g.
   * storing an event), and is closed first, as a `for await` left by an exception would.
   */
  async #fail(error: unknown, closeAgent: boolean): Promise<never> {
    this.#phase = 'done';
    try {
      if (closeAgent) {
        try {
          await this.#agentEvents?.return(undefined);
        } catch {
          // The original error is the one reported.
        }
      }
      this.#state = 'failed';
      publishRunError(this.#ctx.spanId, this.#ctx.invocationId, this.#startTime, error);
      await this.#plugins.onRunError(this.#ctx, { invocationContext: this.#ctx, error });
    } finally {
      await this.#leave();
    }
    throw error;
  }

  /**
   * The end of a run that did not fail: `afterRun` plugins when it was stopped early (aborted, or
   * the caller stopped reading), `runEnd`, and the session's turn is left. `undefined` when all
   * of it was done at once (no such plugin, the turn left without a promise).
   */
  #end(): Promise<void> | undefined {
    this.#phase = 'done';
    if (this.#state === 'open' && this.#runEvents) return this.#stoppedEarly(this.#runEvents);
    try {
      if (this.#state !== 'failed')
        publishRunEnd(this.#ctx.spanId, this.#ctx.invocationId, this.#startTime, this.#eventCount);
    } catch (error) {
      const leaving = this.#leave();
      if (leaving === undefined) throw error;
      return leaving.then(() => Promise.reject(error));
    }
    return this.#leave();
  }

  /** {@link #end} of a run stopped early, with `afterRun` plugins to tell. */
  async #stoppedEarly(runEvents: Event[]): Promise<void> {
    try {
      await this.#plugins.afterRun(this.#ctx, {
        invocationContext: this.#ctx,
        events: runEvents,
        replacement: undefined,
      });
      publishRunEnd(this.#ctx.spanId, this.#ctx.invocationId, this.#startTime, this.#eventCount);
    } finally {
      await this.#leave();
    }
  }

  /** Give the session back (once); a promise only when that has to wait (a shared lock). */
  #leave(): Promise<void> | undefined {
    const hold = this.#hold;
    if (hold === undefined) return undefined;
    this.#hold = undefined;
    return hold.leave();
  }
}
