import type { Content } from '../content';
import type { ReadonlyContext } from '../context';
import type { ToolConfirmation } from '../events';

/** What an input filter sees: the user's message before any agent does. */
export interface InputFilterRequest {
  content: Content;
  appName: string;
  userId: string;
  sessionId: string;
  /** The agent that is about to receive the message. */
  agentName: string;
}

/** What an output filter sees: one model response of an agent (streamed chunk or final). */
export interface OutputFilterRequest {
  content: Content;
  /** True for a streamed chunk; the final event is filtered again as a whole. */
  partial: boolean;
  context: ReadonlyContext;
}

/** What a tool authorization sees: one function call, before the tool runs. */
export interface ToolCallRequest {
  toolName: string;
  args: Record<string, unknown>;
  functionCallId: string;
  /** The human decision when this call is being re-run after a confirmation. */
  confirmation: ToolConfirmation | undefined;
  context: ReadonlyContext;
}

/** Outcome of an input filter. */
export type InputDecision =
  | { readonly outcome: 'allow' }
  | { readonly outcome: 'reject'; readonly reason: string }
  | { readonly outcome: 'rewrite'; readonly content: Content };

/** Outcome of a tool authorization. */
export type ToolDecision =
  | { readonly outcome: 'allow' }
  | { readonly outcome: 'deny'; readonly reason: string }
  | {
      readonly outcome: 'confirm';
      readonly hint?: string;
      /** Deny the call with `CONFIRMATION_EXPIRED` when no answer came within this many ms. */
      readonly timeoutMs?: number;
    };

type MaybePromise<T> = T | Promise<T>;

/**
 * A safety or authorization rule, kept apart from callbacks: callbacks say how an agent reacts,
 * policies say what it is allowed to do. Every hook is optional; returning `undefined` allows.
 *
 * - `filterInput` rejects the user's message with a reason (the model is not called, and the
 *   rejected message is kept out of every later request) or rewrites it before it is stored.
 * - `filterOutput` replaces the content of a model response, for example to redact secrets.
 * - `authorizeTool` allows a call, denies it with a reason the model sees as the function
 *   response, or asks a human to confirm it first (the run pauses; see {@link REQUEST_CONFIRMATION_FUNCTION_NAME}).
 *
 * Policies are given to an agent (`new LlmAgent({ policies })`) or to the runner for every agent
 * (`new Runner({ policies })`); runner policies are evaluated first. Input filters run in the
 * Runner, before the message is stored: those of the Runner and of the root agent.
 *
 * @example
 * ```ts
 * const noDeletes: Policy = {
 *   name: 'no-deletes',
 *   authorizeTool: ({ toolName }) => (toolName.startsWith('delete_') ? deny('Deleting is not allowed.') : allow()),
 * };
 * ```
 */
export interface Policy {
  readonly name: string;
  filterInput?(request: InputFilterRequest): MaybePromise<InputDecision | undefined>;
  filterOutput?(request: OutputFilterRequest): MaybePromise<Content | undefined>;
  authorizeTool?(request: ToolCallRequest): MaybePromise<ToolDecision | undefined>;
}

/** Allow (input or tool call). */
export function allow(): { readonly outcome: 'allow' } {
  return { outcome: 'allow' };
}

/** Reject the user's message; `reason` is shown to the user. */
export function reject(reason: string): InputDecision {
  return { outcome: 'reject', reason };
}

/** Replace the user's message by `content` before anyone sees it. */
export function rewrite(content: Content): InputDecision {
  return { outcome: 'rewrite', content };
}

/** Refuse a tool call; `reason` is what the model receives as the function response. */
export function deny(reason: string): ToolDecision {
  return { outcome: 'deny', reason };
}

/**
 * Pause the run until a human approves or rejects the call; `hint` is shown to the human. With
 * `timeoutMs`, a call nobody answers within that many milliseconds is denied with
 * `CONFIRMATION_EXPIRED`.
 */
export function confirm(hint?: string, options: { timeoutMs?: number } = {}): ToolDecision {
  const decision: { outcome: 'confirm'; hint?: string; timeoutMs?: number } = {
    outcome: 'confirm',
  };
  if (hint !== undefined) decision.hint = hint;
  if (options.timeoutMs !== undefined) decision.timeoutMs = options.timeoutMs;
  return decision;
}
