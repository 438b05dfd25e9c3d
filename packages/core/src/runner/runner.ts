import type { BaseAgent } from '../agents/base-agent';
import type { App } from '../app/app';
import type { RunCallbacks } from '../callbacks/types';
import { InvocationContext } from '../invocation/invocation-context';
import { newSpanId } from '../invocation/span-id';
import type { ArtifactService } from '../artifacts';
import type { Content } from '../content';
import { hasSubscribers } from '../diagnostics/channels';
import { InvalidArgumentError } from '../errors/invalid-argument-error';
import { SessionExistsError } from '../errors/session-exists-error';
import { SessionNotFoundError } from '../errors/session-not-found-error';
import { createEvent, type Event } from '../events';
import { randomUuid } from '../events/random-uuid';
import type { MemoryService } from '../memory';
import type { ContextCacheConfig } from '../models/context-cache';
import { defaultModelRegistry, type ModelRegistry } from '../models/model-registry';
import type { BasePlugin } from '../plugins/base-plugin';
import { PluginManager } from '../plugins/plugin-manager';
import { RunCallbacksPlugin } from '../plugins/run-callbacks-plugin';
import type { Policy } from '../policies/policy';
import { resumedBranch } from '../history/find-caller';
import type { InputVerdict } from '../policies/evaluate-policies';
import { filterUserMessage, inputRejectedEvent, policiesFor } from '../flow/policy-hooks';
import type { CredentialService } from '../auth/credential-service';
import { InMemoryCredentialService } from '../auth/in-memory-credential-service';
import {
  APPEND_EVENT_NOW,
  GET_SESSION_NOW,
  InMemorySessionService,
  inMemoryDirect,
} from '../sessions/in-memory-session-service';
import type { Session } from '../sessions/session';
import type { SessionService } from '../sessions/session-service';
import type { Toolset } from '../tools/tool';
import { findAgentToRun, findResumeEntry } from './find-agent-to-run';
import { withoutRewoundEvents } from '../history/rewound-events';
import { rewindSession, type RewindRequest } from './rewind-session';
import { resumeInvocation, type ResumeRequest } from './resume-invocation';
import { holdSession, SessionTurns } from './session-turns';
import { publishRunEnd, publishRunError, publishRunStart } from './run-outcome';
import type { SessionLock } from './session-lock';
import { createRunConfig, type RunConfig } from '../context/run-config';
import { commitEvent, dropTempDelta } from './commit-event';
import { trackErrorEvent } from './unread-error-events';
import { ConfirmationDeadlines, earliestDeadline, planExpiry } from './confirmation-deadlines';
import { findPendingConfirmations } from '../policies/confirmation-expiry';
import { runLiveInvocation, type RunLiveRequest } from '../live/run-live';

/**
 * Options of {@link Runner}: an {@link App} (its name, root agent and plugins), or an `appName`
 * and an `agent`, plus the services.
 */
export type RunnerOptions = RunnerServices &
  (
    | {
        /** The application: its name, root agent and application-wide plugins. */
        app: App;
        /** Store the sessions under this name instead of `app.name` (a server's app key). */
        appName?: string;
        agent?: undefined;
      }
    | {
        app?: undefined;
        /** Name of the application; sessions are stored under it. */
        appName: string;
        /** The root agent. */
        agent: BaseAgent;
      }
  );

/** The services and settings of a {@link Runner}, besides its app. */
export interface RunnerServices {
  /** Where sessions live. Default: a new `InMemorySessionService`. */
  sessionService?: SessionService;
  artifactService?: ArtifactService;
  memoryService?: MemoryService;
  /**
   * Where the credentials users give to tools are kept (see `ToolContext.getCredential`).
   * Default: a new `InMemoryCredentialService`.
   */
  credentialService?: CredentialService;
  /**
   * Global hooks, run in order before the agents' own callbacks; with an `app`, after the app's
   * plugins. Names must be unique.
   */
  plugins?: readonly BasePlugin[];
  /** Resolves model names. Default: `defaultModelRegistry`. */
  models?: ModelRegistry;
  /** Policies applying to every agent (input filters, tool access, confirmations, redaction). */
  policies?: readonly Policy[];
  /** Create the session on `run()` when it does not exist (default: `SessionNotFoundError`). */
  autoCreateSession?: boolean;
  /**
   * Deny confirmations whose deadline passes while this process lives, by a timer (default
   * `true`): a run that pauses on a request with a deadline arms one, and at the deadline the
   * Runner runs {@link Runner.expireConfirmations} on the session. Off, or after a restart, the
   * expiry is applied when the paused agent next runs on the session.
   */
  confirmationTimers?: boolean;
  /**
   * A lock on each session shared with the other processes running turns on the same sessions
   * (server instances, workers; see {@link SessionLock}): held for each run and resume, so turns
   * on one session take turns across processes as they do inside one. Default: none (runs of one
   * session are serialized in this process only; a concurrent turn from another process fails
   * with `StaleSessionError` when it stores its first event).
   */
  sessionLock?: SessionLock;
}

/** Arguments of {@link Runner.run}. */
export interface RunRequest {
  userId: string;
  sessionId: string;
  /** The user's message; its role defaults to `user`. */
  newMessage: Content;
  /** State changes stored with the user's message (same prefix rules as any delta). */
  stateDelta?: Record<string, unknown>;
  runConfig?: Partial<RunConfig>;
  /** Cancels the run: it ends promptly, without storing partial data. */
  signal?: AbortSignal;
  /**
   * Callbacks for this run only (agent, model and tool hooks of every agent it runs, sub-agents and
   * `AgentTool` children included): after the plugins, before the agents' own callbacks.
   */
  callbacks?: RunCallbacks;
  /**
   * The invocation's id (default: a new random one). Give a stable, new id (e.g. a background
   * job's) to be able to `resume` the invocation after a crash.
   */
  invocationId?: string;
}

/**
 * Runs an agent for one user message at a time and keeps the session up to date.
 *
 * `run()` stores the user's message, picks the agent that answers (the one the conversation is
 * with, else the root), runs it, and yields its events. Every complete event is committed with
 * `sessionService.appendEvent` **before** it is yielded, so what a caller sees is what is stored;
 * partial (streamed) events are yielded and never stored.
 *
 * @example
 * ```ts
 * const runner = new Runner({ appName: 'weather', agent, autoCreateSession: true });
 * for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: userContent('Weather in Paris?') })) {
 *   console.log(event.author, getText(event.content));
 * }
 * ```
 */
export class Runner {
  readonly appName: string;
  readonly agent: BaseAgent;
  readonly sessionService: SessionService;
  readonly artifactService: ArtifactService | undefined;
  readonly memoryService: MemoryService | undefined;
  readonly credentialService: CredentialService;
  readonly plugins: PluginManager;
  readonly models: ModelRegistry;
  readonly policies: readonly Policy[];
  readonly autoCreateSession: boolean;
  /** The app's explicit context caching (`App({ contextCacheConfig })`); undefined: off. */
  readonly contextCacheConfig: ContextCacheConfig | undefined;
  /** The cross-process session lock, if any (see {@link RunnerServices.sessionLock}). */
  readonly sessionLock: SessionLock | undefined;
  readonly #sessionTurns = new SessionTurns();
  readonly #deadlines: ConfirmationDeadlines | undefined;

  /** @throws PluginError when two plugins share a name. */
  constructor(options: RunnerOptions) {
    if (options.app) {
      this.appName = options.appName ?? options.app.name;
      this.agent = options.app.agent;
    } else {
      this.appName = options.appName;
      this.agent = options.agent;
    }
    this.sessionService = options.sessionService ?? new InMemorySessionService();
    this.artifactService = options.artifactService;
    this.memoryService = options.memoryService;
    this.credentialService = options.credentialService ?? new InMemoryCredentialService();
    this.plugins = options.app
      ? options.app.plugins.with(options.plugins ?? [])
      : new PluginManager(options.plugins);
    this.models = options.models ?? defaultModelRegistry;
    this.policies = [...(options.policies ?? [])];
    this.autoCreateSession = options.autoCreateSession ?? false;
    this.contextCacheConfig = options.app?.contextCacheConfig;
    this.sessionLock = options.sessionLock;
    this.#deadlines =
      options.confirmationTimers === false
        ? undefined
        : new ConfirmationDeadlines((userId, sessionId, signal) =>
            this.expireConfirmations({ userId, sessionId, signal }),
          );
  }

  /**
   * Run the agent on `newMessage` and yield the events of the invocation.
   *
   * Order: load (or create) the session, `onUserMessage` plugins, store the user event,
   * `beforeRun` plugins (content returned ends the run with it as the answer), pick and run the
   * agent; each event goes through `onEvent` plugins, is committed unless partial, then yielded;
   * finally `afterRun` plugins. A thrown error first reaches `onRunError` plugins, then the caller.
   * Errors of agents and tools surface as events (`errorCode`), not exceptions; an error event
   * that nobody ever reads (a loop printing only text) gets one process warning (`AdkWarning`,
   * code `ADK_UNREAD_ERROR_EVENT`) before the process exits.
   *
   * Aborting `signal` ends the generator promptly without an error; events already yielded stay
   * stored and nothing partial is stored.
   *
   * Runs on one session (same user and session id) through one Runner take turns: a run started
   * while another is in flight waits until that one has finished, then reads the session with
   * everything the first one stored (aborting `signal` while waiting ends it with no event). Runs
   * on different sessions are concurrent. With a `sessionLock`, the run also holds the session's
   * shared lock, so runs started by other processes on the session wait too. A run holds its turn
   * until its generator finishes or is closed: consume it to the end or close it (`for await` does
   * both, `break` included).
   *
   * @throws SessionNotFoundError when the session does not exist and `autoCreateSession` is off.
   * @throws InvalidArgumentError for a message without parts or an invalid `runConfig`.
   * @throws PluginError when a plugin hook throws.
   */
  async *run(request: RunRequest): AsyncGenerator<Event, void> {
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
    if (signal?.aborted) return;
    const sessionKey = {
      appName: this.appName,
      userId: request.userId,
      sessionId: request.sessionId,
    };
    // One run at a time per session: a second one waits here, then reads what the first stored;
    // with a session lock, runs of other processes too.
    const holding = holdSession(this.#sessionTurns, this.sessionLock, sessionKey, signal);
    const hold = holding instanceof Promise ? await holding : holding;
    if (hold === undefined) return;
    try {
      // This run's callbacks join the plugins as the last one; the Runner's own set stays as is.
      const plugins = request.callbacks
        ? this.plugins.with([new RunCallbacksPlugin(request.callbacks)])
        : this.plugins;
      const initializing = plugins.initialize();
      if (initializing) await initializing;
      // An in-memory store is called synchronously: no promise and no await per stored event.
      const direct = inMemoryDirect(this.sessionService);
      // The session usually exists: read directly, one async frame less than a helper.
      const session =
        (direct
          ? direct[GET_SESSION_NOW](sessionKey)
          : await this.sessionService.getSession(sessionKey)) ??
        (await this.createMissingSession(request.userId, request.sessionId));
      const invocationId = request.invocationId ?? `e-${randomUuid()}`;
      const ctx = new InvocationContext({
        invocationId,
        agent: this.agent,
        session,
        sessionService: this.sessionService,
        artifactService: this.artifactService,
        memoryService: this.memoryService,
        credentialService: this.credentialService,
        runConfig,
        signal,
        plugins,
        models: this.models,
        policies: this.policies,
        contextCacheConfig: this.contextCacheConfig,
        spanId: newSpanId(),
      });
      const startTime = performance.now();
      // Through a function of its own: a closure here would be allocated on every run.
      if (hasSubscribers('runStart')) publishRunStart(ctx, this.appName, startTime);
      let eventCount = 0;
      // 'open' until the run completes or fails; still 'open' in `finally` when the consumer stopped
      // early (break), which is treated like an abort.
      let state: 'open' | 'completed' | 'failed' = 'open';
      // What `afterRun` plugins are shown: collected only when one of them is there to see it.
      const runEvents: Event[] | undefined = plugins.has('afterRun') ? [] : undefined;
      try {
        const message: Content = { ...request.newMessage, role: request.newMessage.role ?? 'user' };
        // Hooks and policies nobody set are skipped without an await.
        ctx.userContent = plugins.has('onUserMessage')
          ? ((await plugins.onUserMessage(ctx, {
              invocationContext: ctx,
              userMessage: message,
            })) ?? message)
          : message;
        const policies = policiesFor(ctx, this.agent);
        // No policies (most runs): nothing to filter, and no verdict object.
        const verdict: InputVerdict | undefined =
          policies.length === 0
            ? undefined
            : await filterUserMessage(policies, ctx, ctx.userContent);
        if (verdict?.outcome === 'allow') ctx.userContent = verdict.content;
        const userEvent = createEvent({
          invocationId,
          author: 'user',
          content: ctx.userContent,
          actions: request.stateDelta ? { stateDelta: request.stateDelta } : undefined,
        });
        if (direct) direct[APPEND_EVENT_NOW]({ session, event: userEvent });
        else await this.sessionService.appendEvent({ session, event: userEvent });
        const early =
          verdict?.outcome === 'reject' || !plugins.has('beforeRun')
            ? undefined
            : await plugins.beforeRun(ctx, { invocationContext: ctx });
        if (verdict?.outcome === 'reject') {
          // A policy rejected the message: no agent runs, the reason is the answer.
          eventCount++;
          const author = findAgentToRun(session, this.agent).name;
          const rejection = await this.commit(
            ctx,
            session,
            inputRejectedEvent(ctx, author, verdict.reason, verdict.policy),
          );
          runEvents?.push(rejection);
          yield rejection;
        } else if (early) {
          const event = createEvent({
            invocationId,
            author: this.agent.name,
            content: { ...early, role: early.role ?? 'model' },
          });
          eventCount++;
          const committed = await this.commit(ctx, session, event);
          runEvents?.push(committed);
          yield committed;
        } else if (!signal?.aborted) {
          const caller = findAgentToRun(session, this.agent);
          const branch = resumedBranch(withoutRewoundEvents(session.events), caller.name);
          // A call paused inside Sequential/Loop agents resumes them from `caller` on. Only a
          // resumed caller can be under them (a routable agent has LlmAgent ancestors only).
          const agent = findResumeEntry(caller);
          if (agent !== caller) ctx.resumeFrom = caller;
          for await (const event of agent.run(ctx.createChild({ agent, branch }))) {
            eventCount++;
            // A pause with a deadline: the Runner denies it at the deadline if nobody answered.
            if (event.longRunningToolIds !== undefined && this.#deadlines && !event.partial) {
              const deadline = earliestDeadline(event);
              if (deadline !== undefined)
                this.#deadlines.watch(request.userId, request.sessionId, deadline);
            }
            // `commit` inlined for the common case (no `onEvent` plugin): one await less per event.
            if (plugins.has('onEvent')) {
              const committed = await this.commit(ctx, session, event);
              if (runEvents && !committed.partial) runEvents.push(committed);
              yield trackErrorEvent(committed, this.appName);
            } else {
              if (!event.partial) {
                if (direct) direct[APPEND_EVENT_NOW]({ session, event });
                else await this.sessionService.appendEvent({ session, event });
                dropTempDelta(event);
                runEvents?.push(event);
              }
              yield event.errorCode === undefined ? event : trackErrorEvent(event, this.appName);
            }
            if (signal?.aborted) break;
          }
        }
        state = 'completed';
        if (runEvents) {
          const replacement = await plugins.afterRun(ctx, {
            invocationContext: ctx,
            events: runEvents,
            replacement: undefined,
          });
          if (replacement && !signal?.aborted) {
            // The transformed result: one more event, by the agent that answered.
            const answered = runEvents.findLast((event) => event.author !== 'user');
            const event = createEvent({
              invocationId,
              author: answered?.author ?? this.agent.name,
              content: { ...replacement, role: replacement.role ?? 'model' },
            });
            eventCount++;
            yield await this.commit(ctx, session, event);
          }
        }
      } catch (error) {
        state = 'failed';
        publishRunError(ctx.spanId, invocationId, startTime, error);
        await plugins.onRunError(ctx, { invocationContext: ctx, error });
        throw error;
      } finally {
        // Aborted, or the caller stopped reading: notify; nothing more can be yielded.
        if (state === 'open' && runEvents) {
          await plugins.afterRun(ctx, {
            invocationContext: ctx,
            events: runEvents,
            replacement: undefined,
          });
        }
        if (state !== 'failed') publishRunEnd(ctx.spanId, invocationId, startTime, eventCount);
      }
    } finally {
      const leaving = hold.leave();
      if (leaving) await leaving;
    }
  }

  /**
   * Continue an invocation from the session's event log instead of starting over (after its
   * process died, or a run that ended on an error): the user's message is not sent again, calls
   * whose responses are stored are not executed again, an interrupted call runs again only when
   * its tool is idempotent (else the model gets a `TOOL_INTERRUPTED` error response), and the agent
   * continues from the last stored event. A finished invocation yields nothing. Same turn-taking
   * and storage rules as {@link Runner.run}.
   *
   * @throws SessionNotFoundError, or InvocationNotFoundError when the session has no event of it.
   */
  resume(request: ResumeRequest): AsyncGenerator<Event, void> {
    return resumeInvocation(this, this.#sessionTurns, request);
  }

  /**
   * Run the agent live: a bidirectional connection to its model (voice, video, realtime text)
   * fed by `liveRequests`, yielding the invocation's events until the queue is closed or `signal`
   * aborts. The agent is picked as in {@link run}; its request is built by the same request
   * processors (instructions, tools, history), plus the live settings of `runConfig`; the model
   * must implement `connectLive` (else `LiveNotSupportedError`).
   *
   * Storage follows the turn-based rules: audio and text deltas and transcription chunks are
   * partial events (yielded, never stored); each finished utterance is stored once as text (with
   * its `inputTranscription` / `outputTranscription`), `interrupted` and `turnComplete` are
   * stored with the turn's usage, text turns the user sends are stored as user events, and
   * function calls run through the usual tool path (callbacks, plugins, policies, timeouts)
   * while audio keeps streaming; their responses go back on the connection. A confirmation
   * request pauses the call only: the user answers through the queue. With `sessionResumption`,
   * the provider's resumption handles are stored and a dropped connection (or a later `runLive`
   * on the session) resumes with the latest one; `saveLiveBlob` stores audio as artifacts.
   *
   * Holds the session's turn (and, with a `sessionLock`, the session's lock shared with other
   * processes) while it lasts, like {@link run}.
   *
   * @example
   * ```ts
   * const queue = new LiveRequestQueue();
   * const events = runner.runLive({ userId: 'u1', sessionId: 's1', liveRequests: queue });
   * await queue.sendContent({ role: 'user', parts: [{ text: 'Hello' }] });
   * queue.close();
   * for await (const event of events) console.log(event.outputTranscription?.text);
   * ```
   *
   * @throws LiveNotSupportedError when the agent's model has no `connectLive`.
   * @throws LiveConnectionLostError when the connection dropped and could not be reopened.
   * @throws SessionNotFoundError, InvalidArgumentError, ServiceNotConfiguredError (`saveLiveBlob`
   * without an artifact service).
   */
  runLive(request: RunLiveRequest): AsyncGenerator<Event, void> {
    const host = Object.assign(Object.create(this) as this, {
      openSession: (userId: string, sessionId: string) => this.openSession(userId, sessionId),
    });
    return runLiveInvocation(host, this.#sessionTurns, request);
  }

  /**
   * Deny the session's confirmation requests whose deadline has passed and that nobody answered:
   * a turn of {@link Runner.run} whose message answers them for the user (`{ confirmed: false,
   * payload: { expired: true } }`, arriving after the deadline), so each paused call gets a
   * `CONFIRMATION_EXPIRED` response, the paused agent (and the workflow around it) continues and
   * the model tells the user. Yields that turn's events; nothing when nothing has expired or the
   * session does not exist. The Runner calls it by itself at each deadline while the process
   * lives (see `confirmationTimers`); call it yourself to apply expiries at once, e.g. after a
   * restart when a session is opened.
   *
   * @example
   * ```ts
   * for await (const event of runner.expireConfirmations({ userId, sessionId })) show(event);
   * ```
   */
  async *expireConfirmations(request: {
    userId: string;
    sessionId: string;
    signal?: AbortSignal;
  }): AsyncGenerator<Event, void> {
    const { userId, sessionId, signal } = request;
    const session = await this.sessionService.getSession({
      appName: this.appName,
      userId,
      sessionId,
    });
    if (!session || signal?.aborted) return;
    const { message, nextDeadline } = planExpiry(
      findPendingConfirmations(withoutRewoundEvents(session.events)),
      Date.now(),
    );
    if (nextDeadline !== undefined) this.#deadlines?.watch(userId, sessionId, nextDeadline);
    if (!message) return;
    yield* this.run({ userId, sessionId, newMessage: message, ...(signal ? { signal } : {}) });
  }

  /**
   * Rewind a session to before an invocation, as Python ADK's `Runner.rewind_async`: the events of
   * that invocation and of every later one are no longer part of the conversation (the model does
   * not see them, the next turn is routed as if they never happened), the session's own state keys
   * get back the values they had before it, and its artifacts (with an `artifactService`) get a new
   * version holding what they held then. Nothing is deleted: one rewind event is appended (see
   * `rewindSession`), so the history stays auditable and every session store supports it. `app:`
   * and `user:` state and `user:` artifacts are shared with other sessions and are not rewound.
   *
   * Waits for a run in flight on the session (same turn-taking as {@link Runner.run}). Returns the
   * stored rewind event.
   *
   * @example
   * ```ts
   * await runner.rewind({ userId: 'u1', sessionId: 's1', rewindBeforeInvocationId: events[0].invocationId });
   * ```
   *
   * @throws SessionNotFoundError when the session does not exist.
   * @throws InvocationNotFoundError when the session holds no event of the invocation.
   */
  async rewind(request: RewindRequest): Promise<Event> {
    const turnKey = `${request.userId}\u0000${request.sessionId}`;
    const turn = this.#sessionTurns.enter(turnKey, undefined);
    if (turn !== true) await turn;
    try {
      const session = await this.sessionService.getSession({
        appName: this.appName,
        userId: request.userId,
        sessionId: request.sessionId,
      });
      if (!session)
        throw new SessionNotFoundError({
          appName: this.appName,
          userId: request.userId,
          sessionId: request.sessionId,
        });
      return await rewindSession({
        sessionService: this.sessionService,
        session,
        rewindBeforeInvocationId: request.rewindBeforeInvocationId,
        ...(this.artifactService ? { artifactService: this.artifactService } : {}),
      });
    } finally {
      this.#sessionTurns.leave(turnKey);
    }
  }

  /**
   * Close every plugin and every toolset of the agent tree, and stop the confirmation timers
   * (waiting for an expiry run in flight, which is ended). Errors are thrown after all were closed.
   */
  async close(): Promise<void> {
    await this.#deadlines?.close();
    const toolsets = new Set<Toolset>();
    const visit = (agent: BaseAgent): void => {
      for (const toolset of (agent as { toolsets?: readonly Toolset[] }).toolsets ?? [])
        toolsets.add(toolset);
      for (const sub of agent.subAgents) visit(sub);
    };
    visit(this.agent);
    let failure: unknown;
    let failed = false;
    for (const toolset of toolsets) {
      try {
        await toolset.close?.();
      } catch (error) {
        if (!failed) failure = error;
        failed = true;
      }
    }
    try {
      await this.plugins.close();
    } catch (error) {
      if (!failed) failure = error;
      failed = true;
    }
    if (failed) throw failure;
  }

  private commit(ctx: InvocationContext, session: Session, event: Event): Promise<Event> {
    return commitEvent(this.sessionService, ctx, session, event);
  }

  private async openSession(userId: string, sessionId: string): Promise<Session> {
    return (
      (await this.sessionService.getSession({ appName: this.appName, userId, sessionId })) ??
      (await this.createMissingSession(userId, sessionId))
    );
  }

  /** The session `getSession` did not find: created when `autoCreateSession` is on. */
  private async createMissingSession(userId: string, sessionId: string): Promise<Session> {
    if (!this.autoCreateSession) {
      throw new SessionNotFoundError({ appName: this.appName, userId, sessionId });
    }
    try {
      return await this.sessionService.createSession({ appName: this.appName, userId, sessionId });
    } catch (error) {
      // Another run created it in the meantime: use theirs.
      if (!SessionExistsError.isInstance(error)) throw error;
      const created = await this.sessionService.getSession({
        appName: this.appName,
        userId,
        sessionId,
      });
      if (!created) throw error;
      return created;
    }
  }
}
