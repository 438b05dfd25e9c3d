import type { RemoteJobChanges } from '../routes/job-watch';
import type { ServerJobStore } from './server-job-store';
import type { AdkServerA2aOptions } from '../a2a/a2a-options';
import type { EvalServerOptions } from '../eval/eval-server-options';
import type { TimestampUnit } from '../http/wire-time';
import type { WebUiOptions } from '../web-ui';
import type {
  App,
  ArtifactService,
  BaseAgent,
  BasePlugin,
  Content,
  CredentialService,
  Event,
  GenerateContentConfig,
  MemoryService,
  RunConfig,
  RunLiveRequest,
  SessionLock,
  SessionService,
} from '@adk/core';

/**
 * What the server needs to know about an agent: its name, its description, its sub-agents and
 * (when it has them) its tools and model. `@adk/core` agents satisfy it.
 */
export interface AgentNode {
  readonly name: string;
  readonly description?: string | undefined;
  readonly subAgents: readonly AgentNode[];
  /** Tools or toolsets (anything with a `name`), when the agent has them. */
  readonly tools?: readonly unknown[];
  /** A model name or a model object with a `name`. */
  readonly model?: unknown;
}

/** One `run` call, as `Runner.run` of `@adk/core` takes it. */
export interface AppRunRequest {
  userId: string;
  sessionId: string;
  newMessage: Content;
  stateDelta?: Record<string, unknown>;
  runConfig?: {
    streamingMode?: 'none' | 'sse';
    maxLlmCalls?: number;
    generateContentConfig?: GenerateContentConfig;
  };
  signal?: AbortSignal;
  /**
   * The invocation's id, when the server chooses it: for `Runner`s of `@adk/core`, whose start it
   * waits for instead of reading the session first. Other runners may ignore it.
   */
  invocationId?: string;
}

/**
 * The runner of one app. `Runner` of `@adk/core` satisfies it: every non-partial event is stored
 * before it is yielded, and the run stops promptly when `signal` aborts.
 */
export interface AppRunner {
  run(request: AppRunRequest): AsyncGenerator<Event, void>;
  close?(): Promise<void>;
  /** A live run (`GET /run_live`), when the runner has one (`Runner` does). */
  runLive?(request: RunLiveRequest): AsyncGenerator<Event, void>;
  /** The root agent, when the runner exposes it (`Runner` does). */
  readonly agent?: AgentNode;
  /** Whether the runner creates missing sessions (`Runner` exposes it). */
  readonly autoCreateSession?: boolean;
  /**
   * Rewind a session to before an invocation (`Runner.rewind`); serves
   * `POST /apps/{app}/users/{user}/sessions/{id}/rewind`, which answers 501 without it.
   */
  rewind?(request: {
    userId: string;
    sessionId: string;
    rewindBeforeInvocationId: string;
  }): Promise<unknown>;
  /**
   * Continue an invocation from its stored events (`Runner.resume`): a `/run_sse` reconnect
   * (`Last-Event-ID`) to an unfinished invocation whose instance died continues it with this,
   * when the runner also has a `sessionLock` that tells a dead instance from a live one.
   */
  resume?(request: {
    userId: string;
    sessionId: string;
    invocationId: string;
    signal?: AbortSignal;
  }): AsyncGenerator<Event, void>;
  /** The cross-process session lock (`Runner.sessionLock`), when the runner has one. */
  readonly sessionLock?: SessionLock | undefined;
}

/**
 * One app served by the server: an agent or an `App` (the server builds its `Runner` with the
 * server's services), or a runner you built (its `agent` is used for the graphs and app info).
 */
export type AdkAppDefinition =
  | {
      /** The root agent; the server runs it with a `Runner` on its own services. */
      agent: BaseAgent;
      app?: undefined;
      runner?: undefined;
      /** Create missing sessions on `/run` instead of answering 404 (default false). */
      autoCreateSession?: boolean;
    }
  | {
      /**
       * An application of `@adk/core`: the server runs its root agent with a `Runner` on its own
       * services, the app's plugins first, then the server's `plugins`. Sessions are stored under
       * the name the app is served as.
       */
      app: App;
      agent?: undefined;
      runner?: undefined;
      /** Create missing sessions on `/run` instead of answering 404 (default false). */
      autoCreateSession?: boolean;
    }
  | {
      /**
       * Your runner. It must use the same session (and artifact) services as the server, since
       * the session routes read what the runs write.
       */
      runner: AppRunner;
      app?: undefined;
      /** The agent tree to describe and draw; default `runner.agent`. */
      agent?: AgentNode;
      /** Default `runner.autoCreateSession`, else false. */
      autoCreateSession?: boolean;
    };

/** An app as the routes see it. */
export interface ResolvedApp {
  agent: AgentNode;
  runner: AppRunner;
  autoCreateSession: boolean;
}

/** Options of {@link createAdkServer}. */
export interface AdkServerOptions {
  /** The apps, by name: the `app_name` of requests and the `{app}` of routes. */
  apps: Record<string, AdkAppDefinition>;
  /** Where sessions live; shared with the runners. */
  sessionService: SessionService;
  /** Serves the artifact routes; without one they answer 501. */
  artifactService?: ArtifactService;
  /** Serves `PATCH /apps/{app}/users/{user}/memory`; without one it answers 400. */
  memoryService?: MemoryService;
  /**
   * An `@adk/jobs` store: serves `/apps/{app}/users/{user}/jobs` (enqueue a background run, show
   * its state, cancel it, stream its changes); without one those routes answer 501. Workers run
   * the jobs: a `JobWorker` in this process (as `adk web` and the playground start by default) or
   * elsewhere (`adk worker`).
   */
  jobStore?: ServerJobStore;
  /**
   * How often an open job stream (`GET /apps/{app}/users/{user}/jobs/stream`) lists the jobs again
   * to find changes made by other processes, in ms (default 1000, or 30000 with `jobChanges`: then
   * only a fallback). Changes made in this process (an in-process worker, the routes) are pushed
   * at once.
   */
  jobWatchIntervalMs?: number;
  /**
   * How often an open memory stream (`GET /apps/{app}/users/{user}/memories/stream`, the web UI's
   * Memory tab) lists the memories again to find changes (a background extraction, a tool), in ms
   * (default 1000). Deletions through the routes are pushed at once.
   */
  memoryWatchIntervalMs?: number;
  /**
   * Job changes made by other processes (instances, workers), which wake the job streams at once:
   * a `JobChangeFeed` of `@adk/jobs` (`PostgresJobChangeFeed` on PostgreSQL `LISTEN`/`NOTIFY`,
   * `RedisJobChangeFeed` on Redis pub/sub). This server only listens; publish this process's own
   * changes with `publishJobChanges(feed)` (and publish cancels yourself).
   */
  jobChanges?: RemoteJobChanges;
  /**
   * Where the credentials users give to tools are kept (see `ToolContext.getCredential` in
   * `@adk/core`): one store for the runners the server builds for `{ agent }` apps, so a
   * credential given once survives across sessions and is kept where you choose (credentials are
   * stored per app and user). Default: each such runner keeps its own in memory. Give the runners
   * you build yourself the same one.
   */
  credentialService?: CredentialService;
  /**
   * Require `Authorization: Bearer <token>` on every route but `/health` and the web page
   * (`/run_live`, opened by browsers that cannot set headers on a WebSocket, also takes it as the
   * `access_token` query parameter).
   */
  token?: string;
  /**
   * Origins allowed to call the API from a browser (CORS). Off when empty or absent. Entries are
   * literal origins, `*`, or regular expressions prefixed with `regex:`. Cross-origin requests that
   * change state from any other origin are refused with 403.
   */
  allowOrigins?: string[];
  /**
   * While a `/run_sse` run is quiet, send an SSE comment this often (milliseconds, default
   * 15000; 0 turns it off) so that proxies do not close the connection.
   */
  sseKeepAliveMs?: number;
  /**
   * `GET /run_live` (WebSocket) settings: the `RunConfig` of every live run (merged over the
   * route's: the client's `modalities`, both audio transcriptions on), and the capacity of each
   * socket's request queue (default 256 requests; a full queue stops reading the socket).
   */
  live?: { runConfig?: Partial<RunConfig>; queueCapacity?: number };
  /**
   * Abort a run when its HTTP client disconnects (default `false`: the run goes on, its events
   * are stored, and the client reconnects, to any instance, with `Last-Event-ID` to get the rest).
   */
  abortRunOnDisconnect?: boolean;
  /** A resumed `/run_sse` stream reads the session for new events this often (ms, default 250). */
  resumePollMs?: number;
  /**
   * A resumed `/run_sse` stream whose invocation runs on no instance this one knows of ends with
   * `RUN_STREAM_STALLED` after this long without a new stored event (ms, default 30000).
   */
  resumeIdleMs?: number;
  /** Largest accepted request body, in bytes (default 16 MiB). Larger bodies get 413. */
  maxBodyBytes?: number;
  /**
   * Serve the bundled web UI at `/` and at `/dev-ui/`, where Python's `adk web` serves its UI
   * (chat, event inspector, traces, graphs, state, artifacts, sessions, evals, background runs).
   * `true` or settings; off by default.
   */
  webUi?: boolean | WebUiOptions;
  /**
   * A folder of your own static files (such as the official ADK web UI's build) served at `/` and
   * `/dev-ui/` instead (`index.html` is the default document).
   */
  webDir?: string;
  /** Version reported by `/version` (default: this package's version). */
  version?: string;
  /**
   * Unit of `timestamp` and `lastUpdateTime` in responses (default `milliseconds`, as stored).
   * `seconds` matches the Python server, whose dates the ADK web UI formats.
   */
  timestampUnit?: TimestampUnit;
  /** Plugins of the runners the server builds for `{ agent }` apps. */
  plugins?: readonly BasePlugin[];
  /** Keep debug traces of at most this many sessions (default 200, oldest dropped first). */
  maxTracedSessions?: number;
  /**
   * Memory the debug traces may take, in bytes (default 8 MiB; the least recently active
   * sessions' spans are dropped first). See `TraceStoreOptions` for the other limits.
   */
  maxTraceBytes?: number;
  /**
   * Serve every app over the A2A protocol too (off by default), as `adk api_server --a2a`: app `x`
   * answers JSON-RPC at `POST /a2a/x` and publishes its card at
   * `/a2a/x/.well-known/agent-card.json`. The A2A runs use the app's runner and session service,
   * so each A2A context is a session of the app. `token`, `maxBodyBytes` and `allowOrigins` apply
   * to these routes too. `true` or settings.
   */
  a2a?: boolean | AdkServerA2aOptions;
  /**
   * Where the eval routes (`/apps/<app>/eval_sets`, `eval-sets`, `run_eval`, `eval_results`...)
   * keep eval sets and results. Default: in memory. `adk web` and `adk api_server` keep them in
   * files, where Python ADK does (`<agents_dir>/<app>/*.evalset.json`, `.adk/eval_history/`).
   */
  evals?: EvalServerOptions;
}
