export {
  BasePlugin,
  type AfterModelHookArgs,
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
