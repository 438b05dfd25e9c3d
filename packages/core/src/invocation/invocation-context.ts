import type { ArtifactService } from '../artifacts';
import type { CredentialService } from '../auth/credential-service';
import type { Content } from '../content';
import type { AgentInfo, Invocation, PluginState } from '../context/invocation';
import type { Event } from '../events';
import { MaxLlmCallsExceededError } from '../errors/max-llm-calls-exceeded-error';
import type { MemoryService } from '../memory';
import type { ContextCacheConfig } from '../models/context-cache';
import { defaultModelRegistry, type ModelRegistry } from '../models/model-registry';
import { PluginManager } from '../plugins/plugin-manager';
import type { Policy } from '../policies/policy';
import { createRunConfig, type RunConfig } from '../context/run-config';
import type { Session } from '../sessions/session';
import type { SessionService } from '../sessions/session-service';
import { newSpanId } from './span-id';

/**
 * An agent as an invocation runs it: its place in the tree ({@link AgentInfo}) and its `run`.
 * Every `BaseAgent` is one.
 */
export interface AgentNode extends AgentInfo {
  readonly subAgents: readonly AgentNode[];
  readonly parentAgent: AgentNode | undefined;
  readonly rootAgent: AgentNode;
  findAgent(name: string): AgentNode | undefined;
  /** Runs the agent in `context` (a context of another agent runs it as a child). */
  run(context: InvocationContext): AsyncGenerator<Event, void>;
}

/** Options of {@link InvocationContext}; only the first four are required. */
export interface InvocationContextInit {
  invocationId: string;
  agent: AgentNode;
  session: Session;
  sessionService: SessionService;
  artifactService?: ArtifactService;
  memoryService?: MemoryService;
  /** Where tools' credentials are kept (see `ToolContext.getCredential`). */
  credentialService?: CredentialService;
  runConfig?: RunConfig;
  branch?: string;
  userContent?: Content;
  signal?: AbortSignal;
  plugins?: PluginManager;
  models?: ModelRegistry;
  /** Policies applying to every agent of the run (see `policies/`), checked before agents' own. */
  policies?: readonly Policy[];
  /** The app's explicit context caching (`App({ contextCacheConfig })`); absent: off. */
  contextCacheConfig?: ContextCacheConfig;
  /** Diagnostics span of the operation this context belongs to; generated when omitted. */
  spanId?: string;
  /** Diagnostics span of the enclosing operation. */
  parentSpanId?: string;
}

/** What every context of one invocation shares, however deep in the agent tree. */
interface InvocationShared {
  llmCalls: number;
  endInvocation: boolean;
  pluginStates: Map<string, PluginState> | undefined;
  resumeFrom: AgentNode | undefined;
}

/**
 * The signal of invocations started without one. It never aborts, so waiting code can skip
 * registering listeners on it (a listener list shared by every concurrent run grows with them).
 */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;

/**
 * Everything an agent needs during one invocation (one `Runner.run` call): the session, the
 * services, the run settings and the cancellation signal.
 *
 * A sub-agent runs with a child context ({@link createChild}) that has its own `agent`, `branch`
 * and diagnostics span, and shares with its parent the session, the services, the model-call
 * counter, the `endInvocation` flag and the plugins' per-invocation state.
 *
 * @example
 * ```ts
 * // inside a custom agent
 * protected async *runImpl(ctx: InvocationContext) {
 *   for (const sub of this.subAgents) yield* sub.run(ctx.createChild({ agent: sub }));
 * }
 * ```
 */
export class InvocationContext implements Invocation {
  readonly invocationId: string;
  readonly agent: AgentNode;
  readonly session: Session;
  readonly sessionService: SessionService;
  readonly artifactService: ArtifactService | undefined;
  readonly memoryService: MemoryService | undefined;
  readonly credentialService: CredentialService | undefined;
  readonly runConfig: RunConfig;
  /** Branch of isolated sub-trees (`parallel.child`); unset on the main line. */
  readonly branch: string | undefined;
  /** The user message that started the invocation (after `onUserMessage` plugins). */
  userContent: Content | undefined;
  /** Aborted when the caller cancels the run. */
  readonly signal: AbortSignal;
  readonly plugins: PluginManager;
  readonly models: ModelRegistry;
  /** Policies applying to every agent of the run, checked before the agents' own. */
  readonly policies: readonly Policy[];
  /** The app's explicit context caching settings; undefined when caching is off. */
  readonly contextCacheConfig: ContextCacheConfig | undefined;
  /** Diagnostics span of the operation this context belongs to (a run or an agent run). */
  readonly spanId: string;
  /** Diagnostics span of the enclosing operation; undefined for the run itself. */
  readonly parentSpanId: string | undefined;
  private readonly shared: InvocationShared;

  /** @param shared Internal: what a child shares with its parent; set by {@link createChild}. */
  constructor(init: InvocationContextInit, shared?: InvocationShared) {
    this.invocationId = init.invocationId;
    this.agent = init.agent;
    this.session = init.session;
    this.sessionService = init.sessionService;
    this.artifactService = init.artifactService;
    this.memoryService = init.memoryService;
    this.credentialService = init.credentialService;
    this.runConfig = init.runConfig ?? createRunConfig();
    this.branch = init.branch;
    this.userContent = init.userContent;
    this.signal = init.signal ?? NEVER_ABORTED;
    this.plugins = init.plugins ?? EMPTY_PLUGINS;
    this.models = init.models ?? defaultModelRegistry;
    this.policies = init.policies ?? [];
    this.contextCacheConfig = init.contextCacheConfig;
    this.spanId = init.spanId ?? newSpanId();
    this.parentSpanId = init.parentSpanId;
    this.shared = shared ?? {
      llmCalls: 0,
      endInvocation: false,
      pluginStates: undefined,
      resumeFrom: undefined,
    };
  }

  get appName(): string {
    return this.session.appName;
  }
  get userId(): string {
    return this.session.userId;
  }
  get sessionId(): string {
    return this.session.id;
  }

  /**
   * Set to `true` to end the whole invocation after the current event: no further model calls,
   * no further agents. Shared by every context of the invocation.
   */
  get endInvocation(): boolean {
    return this.shared.endInvocation;
  }
  set endInvocation(value: boolean) {
    this.shared.endInvocation = value;
  }

  /**
   * The agent whose paused call this invocation resumes, while the `SequentialAgent`s and
   * `LoopAgent`s above it have not reached it yet: each of them starts from the sub-agent leading
   * to it, and the one whose sub-agent it is clears it. Set by the Runner; shared by every context
   * of the invocation; unset in invocations that resume nothing.
   */
  get resumeFrom(): AgentNode | undefined {
    return this.shared.resumeFrom;
  }
  set resumeFrom(agent: AgentNode | undefined) {
    this.shared.resumeFrom = agent;
  }

  /** Model calls made so far in this invocation, across every agent. */
  get llmCallCount(): number {
    return this.shared.llmCalls;
  }

  /**
   * Count one model call against `runConfig.maxLlmCalls`.
   * @throws MaxLlmCallsExceededError when the limit is already reached.
   */
  incrementLlmCallCount(): void {
    const limit = this.runConfig.maxLlmCalls;
    if (limit > 0 && Number.isFinite(limit) && this.shared.llmCalls >= limit) {
      throw new MaxLlmCallsExceededError({ limit });
    }
    this.shared.llmCalls++;
  }

  /**
   * A context for running `agent` (a sub-agent, or an agent run as part of this one). The branch
   * is inherited unless given; the child gets its own diagnostics span, whose parent is this
   * context's span. `BaseAgent.run` calls this itself when given a context of another agent.
   * `signal` narrows cancellation to part of the run (a workflow node's signal, aborted when the
   * node times out or a sibling fails); it should follow this context's signal.
   */
  createChild(options: {
    agent: AgentNode;
    branch?: string;
    signal?: AbortSignal;
    /**
     * What the child sees of the session (default: the parent's): a view whose `events` differ,
     * e.g. a graph workflow's agent node that sees only its input. Events are still stored in the
     * session by the Runner; the view should show them as they arrive.
     */
    session?: Session;
  }): InvocationContext {
    return new InvocationContext(
      {
        invocationId: this.invocationId,
        agent: options.agent,
        session: options.session ?? this.session,
        sessionService: this.sessionService,
        artifactService: this.artifactService,
        memoryService: this.memoryService,
        credentialService: this.credentialService,
        runConfig: this.runConfig,
        branch: options.branch ?? this.branch,
        userContent: this.userContent,
        signal: options.signal ?? this.signal,
        plugins: this.plugins,
        models: this.models,
        policies: this.policies,
        contextCacheConfig: this.contextCacheConfig,
        parentSpanId: this.spanId,
      },
      this.shared,
    );
  }

  /** The per-invocation state of the plugin named `pluginName` (created empty on first use). */
  pluginState(pluginName: string): PluginState {
    const states = (this.shared.pluginStates ??= new Map());
    let state = states.get(pluginName);
    if (!state) {
      state = new Map();
      states.set(pluginName, state);
    }
    return state;
  }
}

const EMPTY_PLUGINS = new PluginManager();
