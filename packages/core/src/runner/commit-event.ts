import type { InvocationContext } from '../invocation/invocation-context';
import type { Event } from '../events';
import { StatePrefix, type Session } from '../sessions/session';
import type { SessionService } from '../sessions/session-service';

/**
 * Store `event` (after the invocation's `onEvent` plugins, which may replace it) unless it is
 * partial, and return what was stored and is to be yielded: the rule of `Runner.run` and
 * `Runner.resume`.
 */
export async function commitEvent(
  sessionService: SessionService,
  ctx: InvocationContext,
  session: Session,
  event: Event,
): Promise<Event> {
  const replaced = ctx.plugins.has('onEvent')
    ? await ctx.plugins.onEvent(ctx, { invocationContext: ctx, event })
    : undefined;
  const final = replaced
    ? { ...replaced, id: event.id, invocationId: event.invocationId, timestamp: event.timestamp }
    : event;
  if (!final.partial) {
    await sessionService.appendEvent({ session, event: final });
    dropTempDelta(final);
  }
  return final;
}

/**
 * After an event was stored, drop its `temp:` state keys so that callers get what was stored:
 * `temp:` keys live in the session's state for this invocation only, never in a stored delta.
 */
export function dropTempDelta(event: Event): void {
  const delta = event.actions.stateDelta;
  for (const key in delta) if (key.startsWith(StatePrefix.TEMP)) delete delta[key];
}
