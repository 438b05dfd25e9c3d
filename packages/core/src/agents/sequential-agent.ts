import type { Event } from '../events';
import { BaseAgent, type BaseAgentOptions } from './base-agent';
import type { InvocationContext } from './invocation-context';

/** Options of {@link SequentialAgent}. */
export type SequentialAgentOptions = BaseAgentOptions;

/**
 * Runs its sub-agents one after the other, in order, in the same conversation: each sees what the
 * previous ones said (as context) and can read what they saved with `outputKey`. Stops early when
 * the invocation is ended or aborted.
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
    for (const sub of this.subAgents) {
      if (ctx.endInvocation || ctx.signal.aborted) return;
      yield* sub.run(ctx.createChild({ agent: sub }));
    }
  }
}
