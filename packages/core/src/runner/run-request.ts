import type { RunCallbacks } from '../callbacks/types';
import type { Content } from '../content';
import type { RunConfig } from '../context/run-config';

/** Arguments of {@link Runner.run}. */
export interface RunRequest {
  userId: string;
  sessionId: string;
  /** The user's message; its role defaults to `user`. */
  newMessage: Content;
  /** State changes stored with the user's message (same prefix rules as any delta). */
  stateDelta?: Record<string, unknown>;
  runConfig?: Partial<RunConfig>;
  /** Cancels the run: it ends promptly, without storing partial data. */
  signal?: AbortSignal;
  /**
   * Callbacks for this run only (agent, model and tool hooks of every agent it runs, sub-agents and
   * `AgentTool` children included): after the plugins, before the agents' own callbacks.
   */
  callbacks?: RunCallbacks;
  /**
   * The invocation's id (default: a new random one). Give a stable, new id (e.g. a background
   * job's) to be able to `resume` the invocation after a crash.
   */
  invocationId?: string;
}
