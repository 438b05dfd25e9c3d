import type { ArtifactService } from '../artifacts';
import type { CredentialService } from '../auth/credential-service';
import type { Content } from '../content';
import type { MemoryService } from '../memory';
import type { ModelRegistry } from '../models/model-registry';
import type { RunConfig } from './run-config';
import type { Session } from '../sessions/session';
import type { SessionService } from '../sessions/session-service';

/**
 * What plugins and contexts know of an agent: its name, description and place in the agent tree.
 * Every agent (`BaseAgent`) is one; `instanceof` narrows it to a concrete agent class.
 */
export interface AgentInfo {
  readonly name: string;
  readonly description: string | undefined;
  readonly subAgents: readonly AgentInfo[];
  readonly parentAgent: AgentInfo | undefined;
  readonly rootAgent: AgentInfo;
  /** This agent or the descendant named `name`. */
  findAgent(name: string): AgentInfo | undefined;
}

/** Per-plugin state of one invocation (see `BasePlugin`). */
export type PluginState = Map<string, unknown>;

/**
 * What plugins (and other code that observes a run rather than drives it) know of one
 * invocation: its ids, session, services, configuration and the agent running. The framework's
 * `InvocationContext` is one; this type lets observers depend on the invocation without depending
 * on the classes that run it.
 */
export interface Invocation {
  readonly invocationId: string;
  /** The agent this context belongs to. */
  readonly agent: AgentInfo;
  readonly session: Session;
  readonly sessionService: SessionService;
  readonly artifactService: ArtifactService | undefined;
  readonly memoryService: MemoryService | undefined;
  readonly credentialService: CredentialService | undefined;
  readonly runConfig: RunConfig;
  /** Dot-separated path of parallel branches this context runs in, if any. */
  readonly branch: string | undefined;
  /** The user message that started the invocation. */
  readonly userContent: Content | undefined;
  /** Aborted when the run is cancelled. */
  readonly signal: AbortSignal;
  readonly models: ModelRegistry;
  /** Diagnostics span of the operation this context belongs to. */
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  /** Set to end the invocation after the current step. */
  endInvocation: boolean;
  /** Model calls made so far in the invocation. */
  readonly llmCallCount: number;
  /** The state of the plugin named `pluginName` in this invocation (created on first use). */
  pluginState(pluginName: string): PluginState;
}
