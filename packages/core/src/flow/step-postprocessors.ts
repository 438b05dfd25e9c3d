import type { InvocationContext } from '../invocation/invocation-context';
import type { FlowAgent } from './flow-agent';
import type { Event } from '../events';

/** Arguments of a {@link StepPostprocessor}. */
export interface StepPostprocessorInput {
  agent: FlowAgent;
  ctx: InvocationContext;
  /** The function-response event the step just yielded (already committed to the session). */
  event: Event;
}

/**
 * Runs after a step's function-response event was yielded, and may yield further events: the
 * extension point for behaviour driven by tool actions, such as running the agent named in
 * `actions.transferToAgent`. Set `ctx.endInvocation` (or make the last yielded event final) to
 * stop the calling agent's loop.
 *
 * An async generator function is the general form. A postprocessor that usually has nothing to do
 * may instead check synchronously and return `undefined` (nothing to do) or an array of events:
 * the built-in ones do, because every step with a tool call runs every postprocessor and an async
 * generator that yields nothing still costs an object and a few promises per step.
 */
export type StepPostprocessor = (
  input: StepPostprocessorInput,
) => AsyncIterable<Event> | readonly Event[] | undefined;
