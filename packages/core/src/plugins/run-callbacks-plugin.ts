import { firstResult, toCallbackList } from '../callbacks/run-callbacks';
import type { MaybePromise, OneOrMany, RunCallbacks } from '../callbacks/types';
import {
  BasePlugin,
  type AfterModelHookArgs,
  type AfterToolHookArgs,
  type AgentHookArgs,
  type BeforeModelHookArgs,
  type BeforeToolHookArgs,
  type ModelErrorHookArgs,
  type ToolErrorHookArgs,
} from './base-plugin';

/** The name under which one run's callbacks appear (in a `PluginError`, for instance). */
export const RUN_CALLBACKS_PLUGIN_NAME = 'adk_run_callbacks';

/**
 * The callbacks of one `Runner.run` call, as the last plugin of that invocation: plugins first,
 * then these, then the agent's own callbacks. Only the hooks given are defined, so a run with
 * only a `beforeTool` callback costs nothing at the other hooks.
 */
export class RunCallbacksPlugin extends BasePlugin {
  constructor(callbacks: RunCallbacks) {
    super(RUN_CALLBACKS_PLUGIN_NAME);
    const hooks: { [K in keyof BasePlugin]?: BasePlugin[K] | undefined } = {
      beforeAgent: adapt(callbacks.beforeAgent, (args: AgentHookArgs) => args.callbackContext),
      afterAgent: adapt(callbacks.afterAgent, (args: AgentHookArgs) => args.callbackContext),
      beforeModel: adapt(callbacks.beforeModel, (args: BeforeModelHookArgs) => ({
        context: args.callbackContext,
        request: args.request,
      })),
      afterModel: adapt(callbacks.afterModel, (args: AfterModelHookArgs) => ({
        context: args.callbackContext,
        response: args.response,
      })),
      onModelError: adapt(callbacks.onModelError, (args: ModelErrorHookArgs) => ({
        context: args.callbackContext,
        request: args.request,
        error: args.error,
        attempt: args.attempt,
      })),
      beforeTool: adapt(callbacks.beforeTool, (args: BeforeToolHookArgs) => ({
        tool: args.tool,
        args: args.args,
        context: args.toolContext,
      })),
      afterTool: adapt(callbacks.afterTool, (args: AfterToolHookArgs) => ({
        tool: args.tool,
        args: args.args,
        context: args.toolContext,
        result: args.result,
      })),
      onToolError: adapt(callbacks.onToolError, (args: ToolErrorHookArgs) => ({
        tool: args.tool,
        args: args.args,
        context: args.toolContext,
        error: args.error,
        attempt: args.attempt,
      })),
    };
    for (const [name, hook] of Object.entries(hooks)) {
      if (hook) (this as unknown as Record<string, unknown>)[name] = hook;
    }
  }
}

/** A plugin hook calling `callbacks` with the arguments `toArgs` makes of the hook's (none: undefined). */
function adapt<HookArgs, CallbackArgs, R>(
  callbacks: OneOrMany<(args: CallbackArgs) => MaybePromise<R>> | undefined,
  toArgs: (args: HookArgs) => CallbackArgs,
): ((args: HookArgs) => Promise<Exclude<Awaited<R>, void> | undefined>) | undefined {
  const list = toCallbackList(callbacks);
  if (list.length === 0) return undefined;
  return (args) => firstResult(list, toArgs(args));
}
