export {
  BasePlugin,
  type AfterModelHookArgs,
  type AfterRunHookArgs,
  type AfterToolHookArgs,
  type AgentErrorHookArgs,
  type AgentHookArgs,
  type BeforeModelHookArgs,
  type BeforeToolHookArgs,
  type EventHookArgs,
  type ModelErrorHookArgs,
  type PluginHookName,
  type PluginState,
  type RunErrorHookArgs,
  type RunHookArgs,
  type ToolErrorHookArgs,
  type UserMessageHookArgs,
} from './base-plugin';
export { LoggingPlugin, type LoggingPluginOptions } from './logging-plugin';
export { PluginManager } from './plugin-manager';
export { RUN_CALLBACKS_PLUGIN_NAME, RunCallbacksPlugin } from './run-callbacks-plugin';
