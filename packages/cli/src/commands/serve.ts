import { InMemoryCredentialService, Runner, type EmbeddingModel, type Model } from '@adk/core';
import { LocalEvalSetResultsStore, LocalEvalSetsStore } from '@adk/eval';
import { createAdkServer, listen } from '@adk/server';
import type { AdkAppDefinition, RunningServer, TimestampUnit } from '@adk/server';

import { PortInUseError, UsageError } from '../errors';
import { loadApps } from '../load-agents';
import {
  defaultArtifactsDir,
  openArtifactStore,
  openJobService,
  openMemoryStore,
} from '../services';
import { resolveEmbeddingModel } from '../services/embedding-model';
import { prepareMemoryExtraction, resolveExtractionModel } from '../services/memory-extraction';
import { SERVER_SESSION_CACHE_BYTES } from '../session-cache';
import { openSessionStore } from '../session-store';

/** Options of {@link serve}. */
export interface ServeOptions {
  /** Folder of agents: one sub-folder (with `agent.ts` or `index.ts`) or file per app. */
  agentsDir: string;
  port?: number;
  host?: string;
  sessionServiceUri?: string;
  /**
   * Heap each session cache may hold, in bytes (`--session_cache_mib`; default
   * `SERVER_SESSION_CACHE_MIB`).
   */
  sessionCacheBytes?: number;
  /**
   * Artifact store: `memory://`, `file://<dir>`, `sqlite:<file>` or `postgres://...`. Default:
   * files next to the sessions (see `defaultArtifactsDir`).
   */
  artifactServiceUri?: string;
  /** Memory store: `memory://` (default), `sqlite:<file>` or `postgres://...`. */
  memoryServiceUri?: string;
  /**
   * Search memory by meaning: an embedding model, or its name from an installed provider package
   * (`gemini-embedding-001`, `text-embedding-3-small`, `@768` for the vector length). The memory
   * service is then a `SemanticMemoryService` (hybrid search) over the memory store.
   */
  memoryEmbeddingModel?: EmbeddingModel | string;
  /**
   * Extract facts about the user from every finished session with this model (or model name), in
   * the background on the job store; the web UI's Memory tab shows them as they arrive. Needs
   * `memoryEmbeddingModel`.
   */
  memoryExtractionModel?: Model | string;
  /** How often background extraction looks for due jobs, in ms (default 1000). */
  memoryExtractionPollMs?: number;
  /** How often the Memory tab's stream looks for changed memories, in ms (default 1000). */
  memoryWatchIntervalMs?: number;
  allowOrigins?: string[];
  /** Serve the web chat page too (`adk web`). */
  web?: boolean;
  /** Bearer token required on API routes. */
  token?: string;
  /**
   * Unit of timestamps on the wire. The `adk` command sends `seconds`, as the Python server does,
   * which the ADK web UI and the bundled page both render right.
   */
  timestampUnit?: TimestampUnit;
  /**
   * Serve every app over the A2A protocol too (`--a2a`): the card at
   * `/a2a/<app>/.well-known/agent-card.json`, JSON-RPC at `POST /a2a/<app>`.
   */
  a2a?: boolean;
  /**
   * Background runs (`/apps/{app}/users/{user}/jobs`): `redis://…` (BullMQ) or `postgres://…`
   * (graphile-worker) puts them on that queue engine, run by `adk worker` processes. Default: the
   * embedded SQLite job store beside the sessions (see `defaultJobStoreUrl`), run by a worker in
   * this process.
   */
  queueUrl?: string;
  /** BullMQ's key prefix or graphile-worker's schema (with `queueUrl`). */
  queueNamespace?: string;
  /**
   * Run the jobs in this process too. Default: true for the embedded store, false with a
   * `queueUrl`.
   */
  inProcessWorker?: boolean;
  /** Queues the in-process worker serves and their concurrency (default `{ default: 5 }`). */
  queues?: Readonly<Record<string, number>>;
  /**
   * How often an open job stream lists the jobs again for changes of other processes that no
   * notification announced (default 30000 ms with a PostgreSQL or Redis queue, 1000 otherwise).
   */
  jobWatchIntervalMs?: number;
  /** Where warnings go (skipped files of the agents folder); default standard error. */
  warn?: (message: string) => void;
}

/** A started `adk api_server` / `adk web`. */
export interface ServeHandle extends RunningServer {
  apps: string[];
  /** Where artifacts are kept, for messages. */
  artifacts: string;
  /** Where background jobs are kept, for messages. */
  jobs: string;
  /** The id of the job worker running in this process, if one does. */
  jobWorker: string | undefined;
  /** What memory does, for messages. */
  memory: string;
}

/**
 * Serve a folder of agents over the ADK API (and the web page with `web: true`, every app over A2A
 * with `a2a: true`). Every agent shares one session store.
 */
export async function serve(options: ServeOptions): Promise<ServeHandle> {
  const closers: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close();
  };
  try {
    const store = await openSessionStore(options.sessionServiceUri, {
      sharedLock: true,
      cacheBytes: options.sessionCacheBytes ?? SERVER_SESSION_CACHE_BYTES,
    });
    closers.push(store.close);
    const artifacts = await openArtifactStore(
      options.artifactServiceUri,
      defaultArtifactsDir(options.sessionServiceUri, options.agentsDir),
    );
    closers.push(artifacts.close);
    if (options.memoryExtractionModel !== undefined && options.memoryEmbeddingModel === undefined)
      throw new UsageError('--memory_extraction_model needs --memory_embedding_model');
    const embedder =
      typeof options.memoryEmbeddingModel === 'string'
        ? await resolveEmbeddingModel(options.memoryEmbeddingModel, options.agentsDir)
        : options.memoryEmbeddingModel;
    const memory = await openMemoryStore(options.memoryServiceUri, embedder ? { embedder } : {});
    closers.push(memory.close);
    // One credential store for every app: a user who signed in once is signed in for all of them.
    const credentialService = new InMemoryCredentialService();
    const services = {
      sessionService: store.service,
      artifactService: artifacts.service,
      memoryService: memory.service,
      credentialService,
    };
    // With PostgreSQL sessions, turns on one session take turns with the other instances too.
    const lock = store.sessionLock ? { sessionLock: store.sessionLock } : {};
    const apps: Record<string, AdkAppDefinition> = {};
    // The same runners serve the API and the background jobs.
    const runners: Record<string, Runner> = {};
    const loaded = await loadApps(options.agentsDir, options.warn);
    // After loadApps: the providers installed next to the agents are registered by then.
    const extraction =
      options.memoryExtractionModel !== undefined && memory.semantic
        ? prepareMemoryExtraction({
            memory: memory.semantic,
            model: resolveExtractionModel(options.memoryExtractionModel),
            sessionService: store.service,
            ...(options.memoryExtractionPollMs ? { pollMs: options.memoryExtractionPollMs } : {}),
          })
        : undefined;
    const runnerServices = { ...services, ...(extraction ? { plugins: [extraction.plugin] } : {}) };
    for (const [name, agent] of loaded.apps) {
      const application = loaded.applications.get(name);
      runners[name] = application
        ? new Runner({ app: application, appName: name, ...runnerServices, ...lock })
        : new Runner({ appName: name, agent, ...runnerServices, ...lock });
      apps[name] = { agent, runner: runners[name] };
    }
    const jobs = await openJobService({
      ...(options.queueUrl ? { queueUrl: options.queueUrl } : {}),
      ...(options.queueNamespace ? { queueNamespace: options.queueNamespace } : {}),
      ...(options.sessionServiceUri ? { sessionServiceUri: options.sessionServiceUri } : {}),
      baseDir: options.agentsDir,
      runners,
      ...(options.inProcessWorker === undefined
        ? {}
        : { inProcessWorker: options.inProcessWorker }),
      ...(options.queues ? { queues: options.queues } : {}),
    });
    closers.push(jobs.close);
    if (extraction) {
      await extraction.start(jobs.store, {
        ...(options.sessionServiceUri ? { sessionServiceUri: options.sessionServiceUri } : {}),
        baseDir: options.agentsDir,
      });
      closers.push(extraction.close);
    }
    const app = createAdkServer({
      apps,
      ...services,
      jobStore: jobs.serverStore,
      ...(jobs.changes ? { jobChanges: jobs.changes } : {}),
      ...(options.jobWatchIntervalMs === undefined
        ? {}
        : { jobWatchIntervalMs: options.jobWatchIntervalMs }),
      ...(options.allowOrigins ? { allowOrigins: options.allowOrigins } : {}),
      ...(options.token ? { token: options.token } : {}),
      timestampUnit: options.timestampUnit ?? 'seconds',
      ...(options.memoryWatchIntervalMs
        ? { memoryWatchIntervalMs: options.memoryWatchIntervalMs }
        : {}),
      ...(options.web ? { webUi: { title: 'ADK Web' } } : {}),
      ...(options.a2a ? { a2a: true } : {}),
      // Eval sets and results as files, where Python ADK keeps them.
      evals: {
        sets: new LocalEvalSetsStore(options.agentsDir),
        results: new LocalEvalSetResultsStore(options.agentsDir),
      },
    });
    closers.push(() => app.close());
    const port = options.port ?? 8000;
    const host = options.host ?? '127.0.0.1';
    const server = await listen(app, { port, host }).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException)?.code === 'EADDRINUSE')
        throw new PortInUseError({ port, host, cause: error });
      throw error;
    });
    closers.pop(); // the server closes the app
    // Stop the worker first: its runs in flight use the runners the app closes.
    closers.push(async () => {
      await extraction?.close();
      await jobs.close();
      await server.close();
    });
    return {
      ...server,
      apps: Object.keys(apps).sort(),
      artifacts: artifacts.description,
      jobs: jobs.description,
      jobWorker: jobs.worker?.workerId,
      memory: [
        memory.description,
        embedder
          ? `by meaning with ${embedder.name} (${memory.semantic!.store.searchPath})`
          : 'by words',
        ...(extraction ? ['facts extracted in the background'] : []),
      ].join(', '),
      close: closeAll,
      shutdown: async (shutdownOptions = {}) => {
        await app.drain(shutdownOptions);
        await closeAll();
      },
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
