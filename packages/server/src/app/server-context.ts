import { httpError } from '../http/http-error';
import type { TraceStore } from '../traces';
import type { AdkAppDefinition, AdkServerOptions } from './types';

/** What every route group needs: the options, the trace store and app lookup. */
export class ServerContext {
  constructor(
    readonly options: AdkServerOptions,
    readonly traces: TraceStore,
  ) {}

  get sessionService() {
    return this.options.sessionService;
  }

  /** Names of the served apps, sorted. */
  appNames(): string[] {
    return Object.keys(this.options.apps).sort();
  }

  /** The app called `name`, or a 404. */
  app(name: string): AdkAppDefinition {
    const app = Object.hasOwn(this.options.apps, name) ? this.options.apps[name] : undefined;
    if (!app)
      throw httpError(
        404,
        `App not found: ${name}. Served apps: ${this.appNames().join(', ') || 'none'}.`,
      );
    return app;
  }
}
