import type { Event } from '../events';
import { BaseAgent, type BaseAgentOptions } from './base-agent';
import type { InvocationContext } from '../invocation/invocation-context';
import { isPaused, resumeIndex } from './workflow-resume';

/** Options of {@link SequentialAgent}. */
export type SequentialAgentOptions = BaseAgentOptions;

/**
 * Runs its sub-agents one after the other, in order, in the same conversation: each sees what the
 * previous ones said (as context) and can read what they saved with `outputKey`. Stops early when
 * the invocation is ended or aborted, or when a sub-agent paused on a call that waits for the user
 * (a confirmation, a long-running tool); the user's answer resumes that sub-agent, and the
 * sequence continues after it.
 *
 * @example
 * ```ts
 * const pipeline = new SequentialAgent({ name: 'pipeline', subAgents: [writer, reviewer] });
 * ```
 */
export class SequentialAgent extends BaseAgent {
  constructor(options: SequentialAgentOptions) {
    super(options);
  }

  protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    const subs = this.subAgents;
    // Resuming a paused call below this agent: start from the sub-agent leading to it.
    const start = ctx.resumeFrom === undefined ? 0 : Math.max(resumeIndex(this, ctx), 0);
    for (let index = start; index < subs.length; index++) {
      if (ctx.endInvocation || ctx.signal.aborted) return;
      const sub = subs[index] as BaseAgent;
      yield* sub.run(ctx.createChild({ agent: sub }));
      if (isPaused(ctx)) return;
    }
  }
}
