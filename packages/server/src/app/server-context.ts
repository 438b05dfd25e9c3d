import { httpError } from '../http/http-error';
import type { TraceStore } from '../traces';
import { InvalidArgumentError, Runner } from '@adk/core';

import { WireTime } from '../http/wire-time';
import { RunStarts } from '../run/run-starts';
import { RunTracker } from '../run/run-tracker';
import type { AdkServerOptions, ResolvedApp } from './types';

/** What every route group needs: the options, the trace store and app lookup. */
export class ServerContext {
  private readonly apps = new Map<string, ResolvedApp>();
  /** Timestamp conversion for responses and imported events. */
  readonly time: WireTime;
  /** The runs in flight on this instance, and the graceful shutdown. */
  readonly runs = new RunTracker();
  /** When the runs of core `Runner`s start (see `RunStarts`). */
  readonly runStarts = new RunStarts();

  constructor(
    readonly options: AdkServerOptions,
    readonly traces: TraceStore,
  ) {
    this.time = new WireTime(options.timestampUnit);
    for (const [name, definition] of Object.entries(options.apps)) {
      if (definition.runner) {
        const agent = definition.agent ?? definition.runner.agent;
        if (!agent) {
          throw new InvalidArgumentError({
            message: `App "${name}" has a runner without an agent: pass \`agent\` too.`,
            argument: 'apps',
          });
        }
        const autoCreateSession =
          definition.autoCreateSession ?? definition.runner.autoCreateSession ?? false;
        this.apps.set(name, { agent, runner: definition.runner, autoCreateSession });
      } else {
        const autoCreateSession = definition.autoCreateSession ?? false;
        const services = {
          sessionService: options.sessionService,
          ...(options.artifactService ? { artifactService: options.artifactService } : {}),
          ...(options.memoryService ? { memoryService: options.memoryService } : {}),
          ...(options.credentialService ? { credentialService: options.credentialService } : {}),
          ...(options.plugins ? { plugins: options.plugins } : {}),
          autoCreateSession,
        };
        const runner = definition.app
          ? new Runner({ app: definition.app, appName: name, ...services })
          : new Runner({ appName: name, agent: definition.agent, ...services });
        this.apps.set(name, { agent: runner.agent, runner, autoCreateSession });
      }
    }
  }

  /** Close every app's runner. */
  async close(): Promise<void> {
    this.runStarts.close();
    await Promise.all([...this.apps.values()].map((app) => app.runner.close?.()));
  }

  get sessionService() {
    return this.options.sessionService;
  }

  /** Names of the served apps, sorted. */
  appNames(): string[] {
    return [...this.apps.keys()].sort();
  }

  /** The app called `name`, or a 404. */
  app(name: string): ResolvedApp {
    const app = this.apps.get(name);
    if (!app)
      throw httpError(
        404,
        `App not found: ${name}. Served apps: ${this.appNames().join(', ') || 'none'}.`,
      );
    return app;
  }
}
