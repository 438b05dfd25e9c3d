import { InvalidArgumentError } from '../errors/invalid-argument-error';
import type { Event } from '../events';
import { BaseAgent, type BaseAgentOptions } from './base-agent';
import type { InvocationContext } from './invocation-context';

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
 * invocation is ended or aborted. After an escalation the rest of the pass is skipped.
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
    for (
      let iteration = 0;
      this.maxIterations === undefined || iteration < this.maxIterations;
      iteration++
    ) {
      for (const sub of this.subAgents) {
        if (ctx.endInvocation || ctx.signal.aborted) return;
        let escalated = false;
        for await (const event of sub.run(ctx.createChild({ agent: sub }))) {
          if (event.actions?.escalate) escalated = true;
          yield event;
        }
        if (escalated) return;
      }
      if (this.subAgents.length === 0) return;
    }
  }
}
