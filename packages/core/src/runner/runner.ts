import type { BaseAgent } from '../agents/base-agent';
import type { App } from '../app/app';
import type { InvocationContext } from '../invocation/invocation-context';
import type { ArtifactService } from '../artifacts';
import { SessionExistsError } from '../errors/session-exists-error';
import { SessionNotFoundError } from '../errors/session-not-found-error';
import type { Event } from '../events';
import type { MemoryService } from '../memory';
import type { ContextCacheConfig } from '../models/context-cache';
import { defaultModelRegistry, type ModelRegistry } from '../models/model-registry';
import type { BasePlugin } from '../plugins/base-plugin';
import { PluginManager } from '../plugins/plugin-manager';
import type { Policy } from '../policies/policy';
import type { CredentialService } from '../auth/credential-service';
import { InMemoryCredentialService } from '../auth/in-memory-credential-service';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import type { Session } from '../sessions/session';
import type { SessionService } from '../sessions/session-service';
import type { Toolset } from '../tools/tool';
import { withoutRewoundEvents } from '../history/rewound-events';
import { rewindSession, type RewindRequest } from './rewind-session';
import { resumeInvocation, type ResumeRequest } from './resume-invocation';
import { SessionTurns } from './session-turns';
import { RunEvents, type RunHost } from './run-events';
import type { SessionLock } from './session-lock';
import type { RunRequest } from './run-request';
import { commitEvent } from './commit-event';
import { ConfirmationDeadlines, planExpiry } from './confirmation-deadlines';
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
  #host: RunHost | undefined;

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
  run(request: RunRequest): AsyncGenerator<Event, void> {
    // A hand-written iterator rather than an async generator: one `then` per event instead of
    // a generator layer's awaits and promises (see `RunEvents`).
    return new RunEvents(this.#runHost(), this.#sessionTurns, this.#deadlines, request);
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

  /** What a run needs of this Runner: its services, and storing events through the plugins. */
  #runHost(): RunHost {
    return (this.#host ??= Object.assign(Object.create(this) as this, {
      commitEvent: (ctx: InvocationContext, session: Session, event: Event) =>
        this.commit(ctx, session, event),
      createMissing: (userId: string, sessionId: string) =>
        this.createMissingSession(userId, sessionId),
    }));
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
