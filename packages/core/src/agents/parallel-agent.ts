import type { Event } from '../events';
import { BaseAgent, type BaseAgentOptions } from './base-agent';
import type { InvocationContext } from '../invocation/invocation-context';

/** Options of {@link ParallelAgent}. */
export type ParallelAgentOptions = BaseAgentOptions;

/** Branch of `sub` run by the parallel agent `parallelName` in a context on `branch`. */
export function parallelBranch(
  branch: string | undefined,
  parallelName: string,
  subName: string,
): string {
  return `${branch ? `${branch}.` : ''}${parallelName}.${subName}`;
}

type Step = { index: number; result: IteratorResult<Event, void> };

/**
 * Runs its sub-agents concurrently, each on its own branch (`<parallel>.<sub>`, nested under the
 * current branch). Events are yielded as they are produced, interleaved; each sub-agent is
 * resumed only once its previous event has been consumed (so it is stored before the sub-agent
 * continues). A branch sees its own events and its ancestors', never its siblings'; agents after
 * the parallel agent on the main line see them all. Branches share the session state.
 *
 * When a branch fails, the others are stopped and the error propagates.
 *
 * @example
 * ```ts
 * const research = new ParallelAgent({ name: 'research', subAgents: [flights, hotels] });
 * const trip = new SequentialAgent({ name: 'trip', subAgents: [research, summarizer] });
 * ```
 */
export class ParallelAgent extends BaseAgent {
  constructor(options: ParallelAgentOptions) {
    super(options);
  }

  protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    const runs = this.subAgents.map((sub) =>
      sub.run(
        ctx.createChild({ agent: sub, branch: parallelBranch(ctx.branch, this.name, sub.name) }),
      ),
    );
    const pending = new Map<number, Promise<Step>>();
    const advance = (index: number): void => {
      const run = runs[index] as AsyncGenerator<Event, void>;
      pending.set(
        index,
        run.next().then((result) => ({ index, result })),
      );
    };
    runs.forEach((_, index) => advance(index));
    let finished = false;
    try {
      while (pending.size > 0) {
        const { index, result } = await Promise.race(pending.values());
        pending.delete(index);
        if (result.done) continue;
        yield result.value;
        if (ctx.signal.aborted) break;
        advance(index);
      }
      finished = true;
    } finally {
      if (!finished) {
        // Stop the other branches; their pending steps settle on their own (abort, or completion).
        for (const index of pending.keys()) {
          const run = runs[index] as AsyncGenerator<Event, void>;
          pending.get(index)?.then(
            () => run.return(undefined).catch(() => undefined),
            () => undefined,
          );
        }
      }
    }
  }
}
