import { InvalidArgumentError } from '../errors/invalid-argument-error';
import type { Event } from '../events';
import { BaseAgent, type BaseAgentOptions } from './base-agent';
import type { InvocationContext } from '../invocation/invocation-context';
import { completedPasses, isPaused, resumeIndex } from './workflow-resume';

/** Options of {@link LoopAgent}. */
export interface LoopAgentOptions extends BaseAgentOptions {
  /**
   * Full passes over the sub-agents before the loop stops. Unset: until a sub-agent escalates
   * (model-driven agents are still bounded by `RunConfig.maxLlmCalls`).
   */
  maxIterations?: number;
}

/**
 * Runs its sub-agents in order, again and again, until one of them escalates (an event with
 * `actions.escalate`, e.g. from the `exit_loop` tool), `maxIterations` passes are done, or the
 * invocation is ended or aborted. After an escalation the rest of the pass is skipped. When a
 * sub-agent pauses on a call that waits for the user (a confirmation, a long-running tool), the
 * loop stops; the user's answer resumes that sub-agent, then the pass continues and the loop goes
 * on (passes done before the pause count towards `maxIterations`).
 *
 * @example
 * ```ts
 * const refine = new LoopAgent({ name: 'refine', maxIterations: 5, subAgents: [writer, critic] });
 * // critic: new LlmAgent({ ..., tools: [exitLoopTool] }) calls exit_loop when the draft is good.
 * ```
 */
export class LoopAgent extends BaseAgent {
  readonly maxIterations: number | undefined;

  /** @throws InvalidArgumentError when `maxIterations` is not a positive integer. */
  constructor(options: LoopAgentOptions) {
    super(options);
    const { maxIterations } = options;
    if (maxIterations !== undefined && (!Number.isInteger(maxIterations) || maxIterations < 1)) {
      throw new InvalidArgumentError({
        message: `LoopAgent "${options.name}": maxIterations must be a positive integer, got ${String(maxIterations)}.`,
        argument: 'maxIterations',
      });
    }
    this.maxIterations = maxIterations;
  }

  protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    const subs = this.subAgents;
    let start = 0;
    let iteration = 0;
    if (ctx.resumeFrom !== undefined) {
      // Resuming a paused call below this agent: continue the pass it paused in.
      start = resumeIndex(this, ctx);
      if (start < 0) start = 0;
      else if (this.maxIterations !== undefined) iteration = completedPasses(this, ctx);
    }
    for (; this.maxIterations === undefined || iteration < this.maxIterations; iteration++) {
      for (let index = start; index < subs.length; index++) {
        if (ctx.endInvocation || ctx.signal.aborted) return;
        const sub = subs[index] as BaseAgent;
        let escalated = false;
        for await (const event of sub.run(ctx.createChild({ agent: sub }))) {
          if (event.actions?.escalate) escalated = true;
          yield event;
        }
        if (escalated || isPaused(ctx)) return;
      }
      start = 0;
      if (subs.length === 0) return;
    }
  }
}
