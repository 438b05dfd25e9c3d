import type { Content } from '../content';
import type { CallbackContext, ToolContext } from '../context';
import type { LlmRequest, LlmResponse } from '../models';
import type { Tool } from '../tools/tool';

/** A value or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/** One callback or an ordered list of them. */
export type OneOrMany<T> = T | readonly T[];

/**
 * Ask the framework to call the model (or the tool) again. Returned by error callbacks; retries
 * are bounded (`LlmAgent` option `maxErrorRetries`, default 2).
 */
export interface RetryDecision {
  retry: true;
}

/**
 * Runs before an agent. Returning content skips the agent: the content becomes the agent's answer
 * (an event authored by it) and the invocation ends.
 */
export type BeforeAgentCallback = (
  context: CallbackContext,
) => MaybePromise<Content | undefined | void>;

/** Runs after an agent. Returned content is emitted as an extra event authored by the agent. */
export type AfterAgentCallback = (
  context: CallbackContext,
) => MaybePromise<Content | undefined | void>;

/** Arguments of a {@link BeforeModelCallback}. */
export interface BeforeModelCallbackArgs {
  context: CallbackContext;
  /** The request about to be sent; may be changed in place. */
  request: LlmRequest;
}
/** Runs before each model call. Returning a response skips the call and uses that response. */
export type BeforeModelCallback = (
  args: BeforeModelCallbackArgs,
) => MaybePromise<LlmResponse | undefined | void>;

/** Arguments of an {@link AfterModelCallback}. */
export interface AfterModelCallbackArgs {
  context: CallbackContext;
  /** The final (aggregated, non-partial) response. */
  response: LlmResponse;
}
/** Runs after each model call. Returning a response replaces the model's. */
export type AfterModelCallback = (
  args: AfterModelCallbackArgs,
) => MaybePromise<LlmResponse | undefined | void>;

/** Arguments of a {@link ModelErrorCallback}. */
export interface ModelErrorCallbackArgs {
  context: CallbackContext;
  request: LlmRequest;
  /** What the model threw. */
  error: unknown;
  /** 0 for the first failure of this call, then 1, 2... after each retry. */
  attempt: number;
}
/**
 * Runs when a model call throws. Return `{ retry: true }` to call again (bounded), a response to
 * use instead (fallback), or `undefined` to let the error through (it becomes an error event).
 */
export type ModelErrorCallback = (
  args: ModelErrorCallbackArgs,
) => MaybePromise<LlmResponse | RetryDecision | undefined | void>;

/** Arguments of a {@link BeforeToolCallback}. */
export interface BeforeToolCallbackArgs {
  tool: Tool;
  /** The arguments the model sent; may be changed in place. */
  args: Record<string, unknown>;
  context: ToolContext;
}
/** Runs before each tool call. Returning a value skips the tool and uses it as the result. */
export type BeforeToolCallback = (args: BeforeToolCallbackArgs) => MaybePromise<unknown>;

/** Arguments of an {@link AfterToolCallback}. */
export interface AfterToolCallbackArgs extends BeforeToolCallbackArgs {
  /** The tool's normalised result. */
  result: Record<string, unknown>;
}
/** Runs after each successful tool call. Returning a value replaces the result. */
export type AfterToolCallback = (args: AfterToolCallbackArgs) => MaybePromise<unknown>;

/** Arguments of a {@link ToolErrorCallback}. */
export interface ToolErrorCallbackArgs extends BeforeToolCallbackArgs {
  /** What the tool threw (a `ToolArgumentsError` when its arguments were invalid). */
  error: unknown;
  /** 0 for the first failure of this call, then 1, 2... after each retry. */
  attempt: number;
}
/**
 * Runs when a tool throws, or when the model called a tool the agent does not have (`error` is then
 * a `ToolNotFoundError` and `tool` a stand-in carrying the name). Return `{ retry: true }` to run it
 * again (bounded), any other value to use
 * as the result (fallback), or `undefined` to let the error through: the model then sees
 * `{ error: { code, message } }`.
 */
export type ToolErrorCallback = (args: ToolErrorCallbackArgs) => MaybePromise<unknown>;

/**
 * Callbacks given to one `Runner.run` call: the hook shapes of agent callbacks, applied to every
 * agent, model call and tool call of that invocation only (sub-agents, agents called through
 * `AgentTool` and workflow nodes included), for a request-scoped audit or a per-tenant guard
 * without rebuilding the agent tree. At each hook they run after the plugins and before the
 * agent's own callbacks; the first to return a value wins, as everywhere.
 */
export interface RunCallbacks {
  beforeAgent?: OneOrMany<BeforeAgentCallback>;
  afterAgent?: OneOrMany<AfterAgentCallback>;
  beforeModel?: OneOrMany<BeforeModelCallback>;
  afterModel?: OneOrMany<AfterModelCallback>;
  onModelError?: OneOrMany<ModelErrorCallback>;
  beforeTool?: OneOrMany<BeforeToolCallback>;
  afterTool?: OneOrMany<AfterToolCallback>;
  onToolError?: OneOrMany<ToolErrorCallback>;
}
