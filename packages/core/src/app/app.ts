import type { BaseAgent } from '../agents/base-agent';
import type { BasePlugin } from '../plugins/base-plugin';
import { createContextCacheConfig, type ContextCacheConfig } from '../models/context-cache';
import { PluginManager } from '../plugins/plugin-manager';

/** Options of {@link App}. */
export interface AppOptions {
  /** Name of the application; its sessions are stored under it. */
  name: string;
  /** The root agent. */
  agent: BaseAgent;
  /**
   * Plugins applied to every run of every runner of this app, in this order, before the plugins a
   * runner adds. Names must be unique.
   */
  plugins?: readonly BasePlugin[];
  /**
   * Explicit context caching for every LLM agent of the app, as Python ADK's `ContextCacheConfig`
   * on `App`: models that support it (Gemini) cache the stable start of their requests. Members
   * left out take their defaults (`cacheIntervals` 10, `ttlSeconds` 1800, `minTokens` 0).
   */
  contextCacheConfig?: Partial<ContextCacheConfig>;
}

/**
 * An application: its root agent and the plugins that apply to all of its runs, declared once.
 *
 * Every `Runner` built from the app (`new Runner({ app, sessionService })`) applies the app's
 * plugins first, then its own; the plugin instances are shared, so each plugin's `init` runs once
 * for the whole app, and state a plugin keeps in its fields is the app's. `adk web`,
 * `adk api_server` and `adk run` serve an `app` exported by an agent file this way.
 *
 * @example
 * ```ts
 * export const app = new App({ name: 'support', agent, plugins: [new AuditPlugin(auditLog)] });
 * const runner = new Runner({ app, sessionService });
 * const worker = new Runner({ app, sessionService, plugins: [new MetricsPlugin()] });
 * ```
 */
export class App {
  readonly name: string;
  readonly agent: BaseAgent;
  /** The app's plugins (checked for unique names). */
  readonly plugins: PluginManager;
  /** The app's explicit context caching, defaults filled in; undefined when off. */
  readonly contextCacheConfig: ContextCacheConfig | undefined;

  /**
   * @throws PluginError when two plugins share a name.
   * @throws InvalidArgumentError when a `contextCacheConfig` member is out of range.
   */
  constructor(options: AppOptions) {
    this.name = options.name;
    this.agent = options.agent;
    this.plugins = new PluginManager(options.plugins);
    this.contextCacheConfig = options.contextCacheConfig
      ? createContextCacheConfig(options.contextCacheConfig)
      : undefined;
  }

  /**
   * Run every plugin's `init` now (a server calls this at start-up to fail fast); otherwise the
   * first run does. Each plugin's `init` runs once, however often this is called.
   * @throws PluginError naming the first plugin whose `init` failed.
   */
  async initialize(): Promise<void> {
    await this.plugins.initialize();
  }
}

/** True for an {@link App} (from any copy of `@adk/core`). */
export function isApp(value: unknown): value is App {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as App).name === 'string' &&
    typeof (value as App).agent === 'object' &&
    Array.isArray((value as App).plugins?.plugins) &&
    typeof (value as App).initialize === 'function'
  );
}
