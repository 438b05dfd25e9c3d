import { firstResult, toCallbackList } from '../callbacks/run-callbacks';
import type { AfterAgentCallback, BeforeAgentCallback, OneOrMany } from '../callbacks/types';
import type { Content } from '../content';
import { InvocationCallbackContext } from '../context/invocation-contexts';
import { hasSubscribers, publish } from '../diagnostics/channels';
import { AgentTreeError } from '../errors/agent-tree-error';
import { InvalidArgumentError } from '../errors/invalid-argument-error';
import { createEvent, createEventActions, type Event, type EventActions } from '../events';
import type { AgentNode, InvocationContext } from '../invocation/invocation-context';

/** Options shared by every agent. */
export interface BaseAgentOptions {
  /** Identifier-like (`[A-Za-z_][A-Za-z0-9_]*`), unique in the agent tree; `user` is reserved. */
  name: string;
  /** What the agent does; other agents read it when deciding to hand over. */
  description?: string;
  /** Child agents. Each agent has at most one parent. */
  subAgents?: readonly BaseAgent[];
  /** Runs before the agent; returning content skips it (see {@link BeforeAgentCallback}). */
  beforeAgentCallback?: OneOrMany<BeforeAgentCallback>;
  /** Runs after the agent; returned content is emitted as an extra event. */
  afterAgentCallback?: OneOrMany<AfterAgentCallback>;
}

const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The base of every agent. An agent is a named node of a tree that, given an
 * {@link InvocationContext}, yields events.
 *
 * {@link run} is the entry point the framework calls: it publishes the agent's diagnostics span,
 * runs the plugins' and the agent's before/after callbacks, and delegates to {@link runImpl}.
 * Subclass and implement `runImpl` to write a custom agent.
 *
 * @example
 * ```ts
 * class Greeter extends BaseAgent {
 *   protected async *runImpl(ctx: InvocationContext) {
 *     yield createEvent({ invocationId: ctx.invocationId, author: this.name,
 *       content: modelContent(`Hello ${ctx.session.state['user:name'] ?? 'there'}!`) });
 *   }
 * }
 * ```
 */
export abstract class BaseAgent implements AgentNode {
  readonly name: string;
  readonly description: string | undefined;
  readonly subAgents: readonly BaseAgent[];
  private parent: BaseAgent | undefined;
  private readonly beforeAgentCallbacks: readonly BeforeAgentCallback[];
  private readonly afterAgentCallbacks: readonly AfterAgentCallback[];

  /**
   * @throws InvalidArgumentError for a name that is not identifier-like, or `user`.
   * @throws AgentTreeError when a sub-agent already has a parent or names collide in the tree.
   */
  constructor(options: BaseAgentOptions) {
    validateAgentName(options.name);
    this.name = options.name;
    this.description = options.description;
    const subAgents = [...(options.subAgents ?? [])];
    validateSubAgents(this.name, subAgents);
    for (const sub of subAgents) sub.parent = this;
    this.subAgents = subAgents;
    this.beforeAgentCallbacks = toCallbackList(options.beforeAgentCallback);
    this.afterAgentCallbacks = toCallbackList(options.afterAgentCallback);
  }

  /** The agent this one is a sub-agent of. */
  get parentAgent(): BaseAgent | undefined {
    return this.parent;
  }

  /** The root of the tree this agent belongs to (itself when it has no parent). */
  get rootAgent(): BaseAgent {
    return this.parent ? this.parent.rootAgent : this;
  }

  /** This agent or the descendant named `name`. */
  findAgent(name: string): BaseAgent | undefined {
    if (this.name === name) return this;
    for (const sub of this.subAgents) {
      const found = sub.findAgent(name);
      if (found) return found;
    }
    return undefined;
  }

  /**
   * Run the agent: diagnostics span, `beforeAgent` plugins then callbacks (which may skip the
   * agent), {@link runImpl}, then `afterAgent` plugins then callbacks. When the agent throws,
   * `onAgentError` plugins may recover with content; otherwise the error propagates.
   *
   * Given a context of another agent (a parent), it runs in `context.createChild({ agent: this })`.
   */
  run(context: InvocationContext): AsyncGenerator<Event, void> {
    const ctx = context.agent === this ? context : context.createChild({ agent: this });
    // The lifecycle only does work when something takes part in it: a hook, a plugin that may
    // recover from errors, a diagnostics subscriber. Without any, the agent's own generator is the
    // run, which spares every event of the run one generator layer (see PERFORMANCE.md).
    if (this.hasLifecycleWork(ctx)) return this.runWithLifecycle(ctx);
    return ctx.endInvocation || ctx.signal.aborted ? noEvents() : this.runImpl(ctx);
  }

  /** {@link run} with its lifecycle: span, hooks, error recovery around {@link runImpl}. */
  private async *runWithLifecycle(ctx: InvocationContext): AsyncGenerator<Event, void> {
    if (ctx.endInvocation || ctx.signal.aborted) return;
    const startTime = this.startRunSpan(ctx);
    let failed = false;
    try {
      // Hooks nobody set are skipped without an await.
      if (ctx.plugins.has('beforeAgent') || this.beforeAgentCallbacks.length > 0) {
        const event = await this.handleBeforeAgent(ctx);
        if (event) yield event;
        if (ctx.endInvocation || ctx.signal.aborted) return;
      }
      yield* this.runImpl(ctx);
      if (ctx.endInvocation || ctx.signal.aborted) return;
      if (ctx.plugins.has('afterAgent') || this.afterAgentCallbacks.length > 0) {
        const event = await this.handleAfterAgent(ctx);
        if (event) yield event;
      }
    } catch (error) {
      failed = true;
      const recovered = await this.recoverFromAgentError(ctx, error, startTime);
      if (recovered) yield recovered;
    } finally {
      // Also when the consumer stops early: every published start gets its end.
      if (!failed) this.endRunSpan(ctx, startTime);
    }
  }

  private hasLifecycleWork(ctx: InvocationContext): boolean {
    return (
      this.beforeAgentCallbacks.length > 0 ||
      this.afterAgentCallbacks.length > 0 ||
      ctx.plugins.has('beforeAgent') ||
      ctx.plugins.has('afterAgent') ||
      ctx.plugins.has('onAgentError') ||
      hasSubscribers('agentStart') ||
      hasSubscribers('agentEnd') ||
      hasSubscribers('agentError')
    );
  }

  /**
   * Publishes `agentStart` for this agent's run in `ctx` and returns its start time. For
   * subclasses that run outside {@link run} (a workflow nested as a node of another, say) and
   * still want their span; pair it with {@link endRunSpan}.
   */
  protected startRunSpan(ctx: InvocationContext): number {
    const startTime = performance.now();
    publish('agentStart', () => ({
      spanId: ctx.spanId,
      parentSpanId: ctx.parentSpanId,
      invocationId: ctx.invocationId,
      appName: ctx.appName,
      userId: ctx.userId,
      sessionId: ctx.sessionId,
      startTime,
      agentName: this.name,
      agentDescription: this.description,
      branch: ctx.branch,
    }));
    return startTime;
  }

  /** Publishes `agentEnd` for the run started by {@link startRunSpan}. */
  protected endRunSpan(ctx: InvocationContext, startTime: number): void {
    publish('agentEnd', () => ({
      spanId: ctx.spanId,
      invocationId: ctx.invocationId,
      durationMs: performance.now() - startTime,
    }));
  }

  /**
   * When the agent threw: publishes `agentError`, then asks the `onAgentError` plugins. Resolves
   * to their recovery event, to `undefined` when the run was aborted, and rejects with `error`
   * when no plugin recovers.
   */
  private async recoverFromAgentError(
    ctx: InvocationContext,
    error: unknown,
    startTime: number,
  ): Promise<Event | undefined> {
    publish('agentError', () => ({
      spanId: ctx.spanId,
      invocationId: ctx.invocationId,
      durationMs: performance.now() - startTime,
      error,
    }));
    if (ctx.signal.aborted) return undefined;
    const actions = createEventActions();
    const recovered = await ctx.plugins.onAgentError(ctx, {
      invocationContext: ctx,
      agent: this,
      callbackContext: new InvocationCallbackContext(ctx, actions),
      error,
    });
    if (recovered === undefined) throw error;
    return this.createEvent(ctx, recovered, actions);
  }

  /** The agent's own behaviour: yield its events. Called by {@link run}. */
  protected abstract runImpl(ctx: InvocationContext): AsyncGenerator<Event, void>;

  /** An event authored by this agent in `ctx`'s branch. */
  protected createEvent(
    ctx: InvocationContext,
    content: Content | undefined,
    actions?: EventActions,
  ): Event {
    return createEvent({
      invocationId: ctx.invocationId,
      author: this.name,
      branch: ctx.branch,
      content: content && { ...content, role: content.role ?? 'model' },
      actions,
    });
  }

  private async handleBeforeAgent(ctx: InvocationContext): Promise<Event | undefined> {
    const actions = createEventActions();
    const callbackContext = new InvocationCallbackContext(ctx, actions);
    const content =
      (await ctx.plugins.beforeAgent(ctx, {
        invocationContext: ctx,
        agent: this,
        callbackContext,
      })) ?? (await firstResult(this.beforeAgentCallbacks, callbackContext));
    if (content) {
      ctx.endInvocation = true;
      return this.createEvent(ctx, content, actions);
    }
    return hasActions(actions) ? this.createEvent(ctx, undefined, actions) : undefined;
  }

  private async handleAfterAgent(ctx: InvocationContext): Promise<Event | undefined> {
    const actions = createEventActions();
    const callbackContext = new InvocationCallbackContext(ctx, actions);
    const content =
      (await ctx.plugins.afterAgent(ctx, {
        invocationContext: ctx,
        agent: this,
        callbackContext,
      })) ?? (await firstResult(this.afterAgentCallbacks, callbackContext));
    if (content) return this.createEvent(ctx, content, actions);
    return hasActions(actions) ? this.createEvent(ctx, undefined, actions) : undefined;
  }
}

/** The run of an agent that has nothing to do: no events. */
async function* noEvents(): AsyncGenerator<Event, void> {}

function hasActions(actions: EventActions): boolean {
  for (const _ in actions.stateDelta) return true;
  for (const _ in actions.artifactDelta) return true;
  return false;
}

function validateAgentName(name: unknown): void {
  if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
    throw new InvalidArgumentError({
      message: `Invalid agent name ${JSON.stringify(name)}: use letters, digits and underscores, not starting with a digit.`,
      argument: 'name',
    });
  }
  if (name === 'user') {
    throw new InvalidArgumentError({
      message: 'The agent name "user" is reserved for the user\'s own events.',
      argument: 'name',
    });
  }
}

function validateSubAgents(parentName: string, subAgents: readonly BaseAgent[]): void {
  const seen = new Set<BaseAgent>();
  for (const sub of subAgents) {
    if (sub.parentAgent || seen.has(sub)) {
      throw new AgentTreeError({
        agentName: sub.name,
        message: `Agent "${sub.name}" already has a parent ("${sub.parentAgent?.name ?? parentName}"); an agent can be the sub-agent of only one agent.`,
      });
    }
    seen.add(sub);
  }
  const names = new Set<string>([parentName]);
  const visit = (agent: BaseAgent): void => {
    if (names.has(agent.name)) {
      throw new AgentTreeError({
        agentName: agent.name,
        message: `Two agents in the tree of "${parentName}" are named "${agent.name}"; agent names must be unique in a tree.`,
      });
    }
    names.add(agent.name);
    for (const child of agent.subAgents) visit(child);
  };
  for (const sub of subAgents) visit(sub);
}
