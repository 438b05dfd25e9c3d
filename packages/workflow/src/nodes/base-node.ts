import type { AuthConfig, BaseAgent } from '@adk/core';
import type { z } from 'zod';

import type { NodeContext } from './node-context';
import type { RetryOptions } from './retry';

/** Options shared by every node. */
export interface BaseNodeOptions {
  /** Unique in the workflow (letters, digits, underscores). */
  name: string;
  description?: string;
  /** Validates the node's input before it runs (a mismatch fails the node). */
  inputSchema?: z.ZodType;
  /** Validates the node's output (a mismatch fails the node). */
  outputSchema?: z.ZodType;
  /** Retries of a failing node (attempts, backoff, which errors). */
  retry?: RetryOptions;
  /** Fails the attempt (`NodeTimeoutError`) when it runs longer; its signal is aborted. */
  timeoutMs?: number;
  /**
   * What an answer to the node's input request does: `false` (default for function and tool
   * nodes, Python's default) makes the answer the node's output; `true` (agents, workflows) runs
   * the node again, which reads it with `ctx.resumeInput(id)`.
   */
  rerunOnResume?: boolean;
  /**
   * Python ADK's `wait_for_output`: an execution that returns nothing (`undefined` or `null`) and
   * sets no route does not trigger the next nodes; the node runs again on its next trigger (keep
   * what it gathered in state). A node collecting its predecessors' outputs until it has enough
   * uses it. Default false: an execution without output triggers the next nodes with `undefined`.
   */
  waitForOutput?: boolean;
  /**
   * Python ADK's node `auth_config`: before the node runs, the credential for this config is
   * looked up (core's `CredentialService`, refreshed or exchanged as a tool's would be); when
   * there is none, the run pauses on an `adk_request_credential` call (core's credential flow,
   * which the ADK web UI answers), the answer is stored, and the node runs with it in
   * `ctx.credential`. Implies `rerunOnResume` (the node runs once it has the credential).
   */
  authConfig?: AuthConfig;
}

const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The base of every workflow node: a name, optional schemas, retry and timeout, and `run`.
 * Subclass it for a custom node; functions, agents and tools are wrapped for you.
 *
 * @example
 * ```ts
 * class Double extends BaseNode<number, number> {
 *   constructor() { super({ name: 'double' }); }
 *   run(input: number) { return input * 2; }
 * }
 * ```
 */
export abstract class BaseNode<I = unknown, O = unknown> {
  readonly name: string;
  readonly description: string | undefined;
  readonly inputSchema: z.ZodType | undefined;
  readonly outputSchema: z.ZodType | undefined;
  readonly retry: RetryOptions | undefined;
  readonly timeoutMs: number | undefined;
  readonly rerunOnResume: boolean;
  readonly waitForOutput: boolean;
  readonly authConfig: AuthConfig | undefined;

  constructor(options: BaseNodeOptions) {
    this.name = options.name;
    this.description = options.description;
    this.inputSchema = options.inputSchema;
    this.outputSchema = options.outputSchema;
    this.retry = options.retry;
    this.timeoutMs = options.timeoutMs;
    this.authConfig = options.authConfig;
    this.rerunOnResume = options.rerunOnResume ?? options.authConfig !== undefined;
    this.waitForOutput = options.waitForOutput ?? false;
  }

  /** True when `name` is a valid node name. */
  static isValidName(name: unknown): name is string {
    return typeof name === 'string' && NAME_PATTERN.test(name);
  }

  /**
   * A join: the node waits until every predecessor has produced an output, then runs once with
   * the outputs keyed by predecessor name. False for ordinary nodes, which run once per trigger.
   */
  get waitsForAllPredecessors(): boolean {
    return false;
  }

  /** Agents this node runs (they join the workflow's agent tree). */
  get agents(): readonly BaseAgent[] {
    return [];
  }

  /**
   * How the node takes the value it is given, before its `inputSchema` check: as it is by
   * default (a custom node following `START` receives the user's message as a `Content`, as in
   * Python); function and tool nodes take a `Content`'s text.
   */
  takeInput(input: unknown): unknown {
    return input;
  }

  /** The node's behaviour: compute the output from the input. */
  abstract run(input: I, ctx: NodeContext): O | Promise<O>;
}
