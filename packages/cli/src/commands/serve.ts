import { InMemoryCredentialService, Runner } from '@adk/core';
import type { BaseAgent } from '@adk/core';
import { LocalEvalSetResultsStore, LocalEvalSetsStore } from '@adk/eval';
import { createAdkServer, listen } from '@adk/server';
import type { AdkAppDefinition, RunningServer, TimestampUnit } from '@adk/server';

import { findApps, loadAgentFile } from '../load-agents';
import { openSessionStore } from '../session-store';

/** Options of {@link serve}. */
export interface ServeOptions {
  /** Folder of agents: one sub-folder (with `agent.ts` or `index.ts`) or file per app. */
  agentsDir: string;
  port?: number;
  host?: string;
  sessionServiceUri?: string;
  allowOrigins?: string[];
  /** Serve the web chat page too (`adk web`). */
  web?: boolean;
  /** Bearer token required on API routes. */
  token?: string;
  /** `seconds` for clients that expect the Python server's timestamps (the ADK web UI). */
  timestampUnit?: TimestampUnit;
  /**
   * Serve every app over the A2A protocol too (`--a2a`): the card at
   * `/a2a/<app>/.well-known/agent-card.json`, JSON-RPC at `POST /a2a/<app>`.
   */
  a2a?: boolean;
}

/** A started `adk api_server` / `adk web`. */
export interface ServeHandle extends RunningServer {
  apps: string[];
}

/**
 * Serve a folder of agents over the ADK API (and the web page with `web: true`, every app over A2A
 * with `a2a: true`). Every agent shares one session store.
 */
export async function serve(options: ServeOptions): Promise<ServeHandle> {
  const store = await openSessionStore(options.sessionServiceUri);
  // One credential store for every app: a user who signed in once is signed in for all of them.
  const credentialService = new InMemoryCredentialService();
  const apps: Record<string, AdkAppDefinition> = {};
  try {
    for (const [name, file] of findApps(options.agentsDir)) {
      const agent: BaseAgent = await loadAgentFile(file);
      apps[name] = {
        agent,
        runner: new Runner({
          appName: name,
          agent,
          sessionService: store.service,
          credentialService,
        }),
      };
    }
  } catch (error) {
    await store.close();
    throw error;
  }
  const app = createAdkServer({
    apps,
    sessionService: store.service,
    credentialService,
    ...(options.allowOrigins ? { allowOrigins: options.allowOrigins } : {}),
    ...(options.token ? { token: options.token } : {}),
    ...(options.timestampUnit ? { timestampUnit: options.timestampUnit } : {}),
    ...(options.web ? { webUi: { title: 'ADK Web' } } : {}),
    ...(options.a2a ? { a2a: true } : {}),
    // Eval sets and results as files, where Python ADK keeps them.
    evals: {
      sets: new LocalEvalSetsStore(options.agentsDir),
      results: new LocalEvalSetResultsStore(options.agentsDir),
    },
  });
  const server = await listen(app, {
    port: options.port ?? 8000,
    host: options.host ?? '127.0.0.1',
  });
  return {
    ...server,
    apps: Object.keys(apps).sort(),
    close: async () => {
      await server.close();
      await store.close();
    },
  };
}
