import type { MaybePromise, RetryDecision } from '../callbacks/types';
import type { Content } from '../content';
import type { CallbackContext, ToolContext } from '../context/types';
import type { AgentInfo, Invocation, PluginState } from '../context/invocation';
import type { Event } from '../events';
import type { LlmRequest, LlmResponse } from '../models';
import type { Tool } from '../tools/tool';

export type { PluginState };

/** Arguments of the run-level hooks. */
export interface RunHookArgs {
  invocationContext: Invocation;
}
/**
 * Arguments of `afterRun`: what the run produced. A hook may transform it by returning content
 * (see {@link BasePlugin.afterRun}).
 */
export interface AfterRunHookArgs extends RunHookArgs {
  /** The events this run stored and yielded, in order (partial events excluded). */
  events: readonly Event[];
  /**
   * The content an earlier plugin's `afterRun` returned to replace the run's answer, if any:
   * each `afterRun` sees the answer as transformed so far.
   */
  replacement: Content | undefined;
}
/** Arguments of `onUserMessage`: the message about to be stored. */
export interface UserMessageHookArgs extends RunHookArgs {
  userMessage: Content;
}
/** Arguments of `onEvent`: the event about to be stored (unless partial) and yielded. */
export interface EventHookArgs extends RunHookArgs {
  event: Event;
}
/** Arguments of `onRunError`: what the run threw. */
export interface RunErrorHookArgs extends RunHookArgs {
  error: unknown;
}
/** Arguments of `beforeAgent` and `afterAgent`; state written through `callbackContext` is stored with the agent's event. */
export interface AgentHookArgs extends RunHookArgs {
  agent: AgentInfo;
  callbackContext: CallbackContext;
}
/** Arguments of `onAgentError`. */
export interface AgentErrorHookArgs extends AgentHookArgs {
  error: unknown;
}
/** Arguments of `beforeModel`. */
export interface BeforeModelHookArgs extends RunHookArgs {
  agent: AgentInfo;
  callbackContext: CallbackContext;
  /** May be changed in place. */
  request: LlmRequest;
}
/** Arguments of `afterModel`: the final (aggregated) response. */
export interface AfterModelHookArgs extends RunHookArgs {
  agent: AgentInfo;
  callbackContext: CallbackContext;
  response: LlmResponse;
}
/** Arguments of `onModelError`. */
export interface ModelErrorHookArgs extends BeforeModelHookArgs {
  error: unknown;
  /** 0 for the first failure of this call, then 1, 2... after each retry. */
  attempt: number;
}
/** Arguments of `beforeTool`. */
export interface BeforeToolHookArgs extends RunHookArgs {
  agent: AgentInfo;
  tool: Tool;
  /** May be changed in place. */
  args: Record<string, unknown>;
  toolContext: ToolContext;
}
/** Arguments of `afterTool`: the normalised result. */
export interface AfterToolHookArgs extends BeforeToolHookArgs {
  result: Record<string, unknown>;
}
/** Arguments of `onToolError` (attempt counts retries of this call). */
export interface ToolErrorHookArgs extends BeforeToolHookArgs {
  error: unknown;
  attempt: number;
}

/**
 * A plugin: global hooks around every run, agent, model call and tool call of a Runner.
 *
 * Every hook is optional. Plugins run in registration order **before** the agent's own callbacks at
 * every hook; for hooks that return a value, the first plugin returning something other than
 * `undefined` wins: later plugins and the agent's callback are skipped. A hook that throws fails the
 * run with a `PluginError` naming the plugin and the hook.
 *
 * State: the second argument of every hook is this plugin's {@link PluginState} for the current
 * invocation; fields of the plugin instance are shared by all runs.
 *
 * @example
 * ```ts
 * class BlockSecrets extends BasePlugin {
 *   constructor() { super('block_secrets'); }
 *   override beforeTool({ args }: BeforeToolHookArgs) {
 *     if (JSON.stringify(args).includes('password')) return { error: 'refused' };
 *   }
 * }
 * new Runner({ appName, agent, plugins: [new BlockSecrets()] });
 * ```
 */
export abstract class BasePlugin {
  constructor(readonly name: string) {}

  /**
   * Prepare the plugin once, before the first run that uses it (open a connection, load a rule
   * file). Called once per plugin instance however many runners share it (the runners of an
   * `App`, the apps of a server); every run waits for it. A throwing `init` fails that run with
   * a `PluginError`, and the next run tries again. Configuration comes in through the
   * constructor; state that outlives a run lives in the plugin's own fields.
   */
  init?(): MaybePromise<void>;

  /** Before the user message is stored. Return content to replace the message. */
  onUserMessage?(
    args: UserMessageHookArgs,
    state: PluginState,
  ): MaybePromise<Content | undefined | void>;
  /** Before any agent runs. Return content to end the run with it as the answer (agents skipped). */
  beforeRun?(args: RunHookArgs, state: PluginState): MaybePromise<Content | undefined | void>;
  /**
   * After the run finished (also after a `beforeRun` short-circuit or an abort). Every plugin's
   * `afterRun` is called, in order. Return content to transform the run's result: once all have
   * run, the last content returned becomes one more event of the run, authored by the agent that
   * answered (stored, then yielded), so a caller reading the run's final answer reads it. After
   * an abort, or when the caller stopped reading, nothing more can be yielded and returned content
   * is ignored.
   */
  afterRun?(args: AfterRunHookArgs, state: PluginState): MaybePromise<Content | undefined | void>;
  /** For every event (partial ones too) before it is stored and yielded. Return an event to replace it. */
  onEvent?(args: EventHookArgs, state: PluginState): MaybePromise<Event | undefined | void>;
  /** Before an agent runs. Return content to skip the agent (see `BeforeAgentCallback`). */
  beforeAgent?(args: AgentHookArgs, state: PluginState): MaybePromise<Content | undefined | void>;
  /** After an agent ran. Return content to emit it as an extra event of the agent. */
  afterAgent?(args: AgentHookArgs, state: PluginState): MaybePromise<Content | undefined | void>;
  /** When an agent throws. Return content to recover (emitted as the agent's answer); else it propagates. */
  onAgentError?(
    args: AgentErrorHookArgs,
    state: PluginState,
  ): MaybePromise<Content | undefined | void>;
  /** Before each model call. Return a response to skip the call. */
  beforeModel?(
    args: BeforeModelHookArgs,
    state: PluginState,
  ): MaybePromise<LlmResponse | undefined | void>;
  /** After each model call. Return a response to replace the model's. */
  afterModel?(
    args: AfterModelHookArgs,
    state: PluginState,
  ): MaybePromise<LlmResponse | undefined | void>;
  /** When a model call throws: `{ retry: true }`, a fallback response, or undefined. */
  onModelError?(
    args: ModelErrorHookArgs,
    state: PluginState,
  ): MaybePromise<LlmResponse | RetryDecision | undefined | void>;
  /** Before each tool call. Return a value to skip the tool and use it as the result. */
  beforeTool?(args: BeforeToolHookArgs, state: PluginState): MaybePromise<unknown>;
  /** After each successful tool call. Return a value to replace the result. */
  afterTool?(args: AfterToolHookArgs, state: PluginState): MaybePromise<unknown>;
  /** When a tool throws or is unknown: `{ retry: true }`, a fallback result, or undefined. */
  onToolError?(args: ToolErrorHookArgs, state: PluginState): MaybePromise<unknown>;
  /** When the run fails with an exception (not for error events). Notification only. */
  onRunError?(args: RunErrorHookArgs, state: PluginState): MaybePromise<void>;
  /** Release resources; called by `Runner.close()`. */
  close?(): MaybePromise<void>;
}

/** Names of the hooks a plugin may implement (every member of {@link BasePlugin} but `name`). */
export type PluginHookName = Exclude<keyof BasePlugin, 'name'>;
