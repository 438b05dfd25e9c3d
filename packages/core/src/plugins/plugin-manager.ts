import type { Invocation } from '../context/invocation';
import type { RetryDecision } from '../callbacks/types';
import type { Content } from '../content';
import { PluginError } from '../errors/plugin-error';
import type { Event } from '../events';
import type { LlmResponse } from '../models';
import type {
  AfterModelHookArgs,
  AfterRunHookArgs,
  AfterToolHookArgs,
  AgentErrorHookArgs,
  AgentHookArgs,
  BasePlugin,
  BeforeModelHookArgs,
  BeforeToolHookArgs,
  EventHookArgs,
  ModelErrorHookArgs,
  PluginHookName,
  PluginState,
  RunErrorHookArgs,
  RunHookArgs,
  ToolErrorHookArgs,
  UserMessageHookArgs,
} from './base-plugin';

type InvocationHook = Exclude<PluginHookName, 'close' | 'init'>;
type HookFunction = (args: RunHookArgs, state: PluginState) => unknown;

/**
 * Each plugin instance's `init`, started once: kept with the instance (weakly), not with a
 * manager, so the runners sharing a plugin initialise it once. A failed `init` is forgotten so
 * that the next run tries again.
 */
const initializations = new WeakMap<BasePlugin, Promise<void>>();

const HOOKS: readonly InvocationHook[] = [
  'onUserMessage',
  'beforeRun',
  'afterRun',
  'onEvent',
  'beforeAgent',
  'afterAgent',
  'onAgentError',
  'beforeModel',
  'afterModel',
  'onModelError',
  'beforeTool',
  'afterTool',
  'onToolError',
  'onRunError',
];

/**
 * Runs a Runner's plugins at each hook, in registration order.
 *
 * For hooks that return a value, the first plugin that returns something other than `undefined`
 * wins and the rest are skipped (the caller then skips the agent's own callbacks). Notification
 * hooks (`afterRun`, `onRunError`) call every plugin. A plugin that throws is reported as a
 * {@link PluginError} naming it and the hook. When no plugin implements a hook, calling it costs a
 * single array-length check.
 */
export class PluginManager {
  readonly plugins: readonly BasePlugin[];
  private readonly byHook = new Map<InvocationHook, BasePlugin[]>();
  /** Plugins whose `init` this manager has not yet seen finish; emptied as they do. */
  private uninitialized: BasePlugin[];

  /** @throws PluginError when two plugins share a name. */
  constructor(plugins: readonly BasePlugin[] = []) {
    const names = new Set<string>();
    for (const plugin of plugins) {
      if (names.has(plugin.name)) {
        throw new PluginError({
          pluginName: plugin.name,
          hook: 'register',
          message: `Two plugins are named "${plugin.name}"; plugin names must be unique.`,
        });
      }
      names.add(plugin.name);
    }
    this.plugins = [...plugins];
    this.uninitialized = this.plugins.filter((plugin) => typeof plugin.init === 'function');
    for (const hook of HOOKS) {
      this.byHook.set(
        hook,
        this.plugins.filter((plugin) => typeof plugin[hook] === 'function'),
      );
    }
  }

  /**
   * A manager with these plugins followed by `more` (the run-level additions of one invocation).
   * @throws PluginError when two plugins share a name.
   */
  with(more: readonly BasePlugin[]): PluginManager {
    if (more.length === 0) return this;
    const manager = new PluginManager([...this.plugins, ...more]);
    // What this manager saw initialised stays initialised: only the additions may need `init`.
    manager.uninitialized = [
      ...this.uninitialized,
      ...more.filter((plugin) => typeof plugin.init === 'function'),
    ];
    return manager;
  }

  /**
   * Wait for every plugin's `init` (each runs once per plugin instance, see `BasePlugin.init`).
   * `undefined` once they have all finished, so that a run has nothing to await.
   * @throws PluginError naming the first plugin whose `init` failed (the next call tries again).
   */
  initialize(): Promise<void> | undefined {
    if (this.uninitialized.length === 0) return undefined;
    return this.initializeAll();
  }

  /** True when at least one plugin implements `hook`. */
  has(hook: InvocationHook): boolean {
    return (this.byHook.get(hook)?.length ?? 0) > 0;
  }

  onUserMessage(ctx: Invocation, args: UserMessageHookArgs) {
    return this.first<Content>('onUserMessage', ctx, args);
  }
  beforeRun(ctx: Invocation, args: RunHookArgs) {
    return this.first<Content>('beforeRun', ctx, args);
  }
  /**
   * Every `afterRun` hook, in order, each seeing the answer as the earlier ones transformed it
   * (`args.replacement`). Resolves to the last content returned, if any.
   */
  afterRun(ctx: Invocation, args: AfterRunHookArgs): Promise<Content | undefined> | undefined {
    const plugins = this.byHook.get('afterRun')!;
    if (plugins.length === 0) return undefined;
    return (async () => {
      let replacement = args.replacement;
      for (const plugin of plugins) {
        const hookArgs: AfterRunHookArgs = { ...args, replacement };
        const result = await this.call(plugin, 'afterRun', ctx, hookArgs);
        if (result !== undefined) replacement = result as Content;
      }
      return replacement;
    })();
  }
  onEvent(ctx: Invocation, args: EventHookArgs) {
    return this.first<Event>('onEvent', ctx, args);
  }
  beforeAgent(ctx: Invocation, args: AgentHookArgs) {
    return this.first<Content>('beforeAgent', ctx, args);
  }
  afterAgent(ctx: Invocation, args: AgentHookArgs) {
    return this.first<Content>('afterAgent', ctx, args);
  }
  onAgentError(ctx: Invocation, args: AgentErrorHookArgs) {
    return this.first<Content>('onAgentError', ctx, args);
  }
  beforeModel(ctx: Invocation, args: BeforeModelHookArgs) {
    return this.first<LlmResponse>('beforeModel', ctx, args);
  }
  afterModel(ctx: Invocation, args: AfterModelHookArgs) {
    return this.first<LlmResponse>('afterModel', ctx, args);
  }
  onModelError(ctx: Invocation, args: ModelErrorHookArgs) {
    return this.first<LlmResponse | RetryDecision>('onModelError', ctx, args);
  }
  beforeTool(ctx: Invocation, args: BeforeToolHookArgs) {
    return this.first<unknown>('beforeTool', ctx, args);
  }
  afterTool(ctx: Invocation, args: AfterToolHookArgs) {
    return this.first<unknown>('afterTool', ctx, args);
  }
  onToolError(ctx: Invocation, args: ToolErrorHookArgs) {
    return this.first<unknown>('onToolError', ctx, args);
  }
  onRunError(ctx: Invocation, args: RunErrorHookArgs) {
    return this.all('onRunError', ctx, args);
  }

  /**
   * Close every plugin (each is given the chance even when an earlier one fails).
   * @throws PluginError for the first plugin whose `close` threw.
   */
  async close(): Promise<void> {
    let failure: PluginError | undefined;
    for (const plugin of this.plugins) {
      try {
        await plugin.close?.();
      } catch (error) {
        failure ??= new PluginError({ pluginName: plugin.name, hook: 'close', cause: error });
      }
    }
    if (failure) throw failure;
  }

  private async initializeAll(): Promise<void> {
    for (const plugin of this.uninitialized) {
      let started = initializations.get(plugin);
      if (!started) {
        started = (async () => plugin.init!())();
        initializations.set(plugin, started);
        // Forget a failure, so that the next run tries again.
        started.catch(() => {
          if (initializations.get(plugin) === started) initializations.delete(plugin);
        });
      }
      try {
        await started;
      } catch (error) {
        throw PluginError.isInstance(error)
          ? error
          : new PluginError({ pluginName: plugin.name, hook: 'init', cause: error });
      }
    }
    this.uninitialized = [];
  }

  private first<R>(
    hook: InvocationHook,
    ctx: Invocation,
    args: RunHookArgs,
  ): Promise<R | undefined> | undefined {
    const plugins = this.byHook.get(hook)!;
    if (plugins.length === 0) return undefined;
    return this.runFirst<R>(plugins, hook, ctx, args);
  }

  private async runFirst<R>(
    plugins: readonly BasePlugin[],
    hook: InvocationHook,
    ctx: Invocation,
    args: RunHookArgs,
  ): Promise<R | undefined> {
    for (const plugin of plugins) {
      const result = await this.call(plugin, hook, ctx, args);
      if (result !== undefined) return result as R;
    }
    return undefined;
  }

  private all(hook: InvocationHook, ctx: Invocation, args: RunHookArgs): Promise<void> | undefined {
    const plugins = this.byHook.get(hook)!;
    if (plugins.length === 0) return undefined;
    return (async () => {
      for (const plugin of plugins) await this.call(plugin, hook, ctx, args);
    })();
  }

  private async call(
    plugin: BasePlugin,
    hook: InvocationHook,
    ctx: Invocation,
    args: RunHookArgs,
  ): Promise<unknown> {
    try {
      return await (plugin[hook] as HookFunction).call(plugin, args, ctx.pluginState(plugin.name));
    } catch (error) {
      if (PluginError.isInstance(error)) throw error;
      throw new PluginError({ pluginName: plugin.name, hook, cause: error });
    }
  }
}
