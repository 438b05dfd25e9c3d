import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

import { FileArtifactService } from '@adk/artifacts';
import { InMemoryCredentialService, Runner } from '@adk/core';
import type { Model, SessionService } from '@adk/core';
import { openJobService, type OpenedJobService } from '@adk/cli';
import { InMemoryMemoryService } from '@adk/memory';
import { createAdkServer } from '@adk/server';
import type { AdkServerApp } from '@adk/server';
import { createSessionService } from '@adk/session-sql';

import {
  createFilesAgent,
  createReportsAgent,
  createRouterAgent,
  createVoiceAgent,
} from './agents';
import type { PlaygroundConfig } from './config';
import { resolveLiveModel, resolveModel } from './models';

/** The assembled playground: the Hono app and what it runs on. */
export interface Playground {
  app: AdkServerApp;
  sessionService: SessionService;
  model: Model;
  /** True when running on the offline demo model. */
  offline: boolean;
  /** The background jobs: their store and the worker running them in this process, if any. */
  jobs: OpenedJobService;
  close(): Promise<void>;
}

/** Prepare a `sqlite:` URL's folder so the database file can be created. */
function ensureSqliteFolder(url: string): void {
  if (!url.startsWith('sqlite:') || url.includes(':memory:')) return;
  const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
  mkdirSync(dirname(path), { recursive: true });
}

/**
 * Build the playground: the session store from `config.sessionUrl`, the model, the sample agents
 * (`router` with its weather and news specialists, `reports` with artifacts and approval, and
 * `files`, the tools of an MCP filesystem server confined to `config.sandboxDir`, and `voice`,
 * a live agent served on `/run_live`: Gemini Live with a Gemini key, else an offline stand-in), and
 * the ADK API server with its web chat page and (unless `config.a2a` is false) the A2A routes,
 * and background runs: the embedded SQLite job store beside the sessions and a worker in this
 * process by default, or the queue engine of `config.queueUrl`.
 */
export async function createPlayground(
  config: PlaygroundConfig,
  options: { model?: Model; liveModel?: Model } = {},
): Promise<Playground> {
  ensureSqliteFolder(config.sessionUrl);
  const sessionService = await createSessionService(config.sessionUrl, { autoMigrate: true });
  const artifactService = new FileArtifactService({ root: config.artifactsDir });
  const memoryService = new InMemoryMemoryService();
  // Shared by both apps: a tool credential given once serves every app.
  const credentialService = new InMemoryCredentialService();
  const model = options.model ?? (await resolveModel(config.model));
  const offline = model.name === 'offline-demo';
  const liveModel =
    options.liveModel ??
    (await resolveLiveModel(config.model, process.env.ADK_LIVE_MODEL?.trim() || undefined));

  const apps = Object.fromEntries(
    [
      createRouterAgent(model),
      createReportsAgent(model),
      createFilesAgent(model, config.sandboxDir),
      createVoiceAgent(liveModel),
    ].map((agent) => [
      agent.name,
      {
        agent,
        runner: new Runner({
          appName: agent.name,
          agent,
          sessionService,
          artifactService,
          memoryService,
          credentialService,
        }),
      },
    ]),
  );
  const jobs = await openJobService({
    ...(config.queueUrl ? { queueUrl: config.queueUrl } : {}),
    ...(config.queueNamespace ? { queueNamespace: config.queueNamespace } : {}),
    sessionServiceUri: config.sessionUrl,
    baseDir: config.baseDir,
    runners: Object.fromEntries(
      Object.entries(apps).map(([name, definition]) => [name, definition.runner]),
    ),
    ...(config.inProcessWorker ? { inProcessWorker: true } : {}),
  });
  const app = createAdkServer({
    apps,
    sessionService,
    jobStore: jobs.serverStore,
    artifactService,
    memoryService,
    credentialService,
    ...(config.token ? { token: config.token } : {}),
    allowOrigins: config.allowOrigins,
    // Every app is an A2A agent too: card at /a2a/<app>/.well-known/agent-card.json.
    a2a: config.a2a,
    // Seconds by default: the dates the official ADK web UI and the bundled page show are right.
    timestampUnit: config.timestampUnit,
    webUi: {
      title: 'ADK Playground',
      defaultApp: 'router',
      notice: offline
        ? 'Offline demo model: no API key found, so replies come from simple built-in rules. Set GEMINI_API_KEY, ANTHROPIC_API_KEY or OPENAI_API_KEY for a real model.'
        : `Model: ${model.name}`,
    },
  });
  return {
    app,
    sessionService,
    model,
    offline,
    jobs,
    close: async () => {
      await jobs.close(); // first: its runs in flight use the runners the app closes
      await app.close();
      await sessionService.close();
    },
  };
}
