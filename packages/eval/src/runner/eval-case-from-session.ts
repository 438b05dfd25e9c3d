import type { Event, Session } from '@adk/core';

import type { EvalCase, Invocation } from '../schema';
import { invocationFromEvents } from './invocation-from-events';

/**
 * Turn a stored session into an eval case, as the ADK web UI's "add session to eval set" does:
 * each user message starts an invocation, whose final response, tool uses and intermediate
 * responses come from the events of that invocation. The case's session input names the session's
 * app and user; its state is the session's state with no event applied (empty unless the session
 * was created with one, which is not recorded, so `{}`).
 */
export function evalCaseFromSession(session: Session, evalId: string): EvalCase {
  const conversation: Invocation[] = [];
  let current: { user: Event; events: Event[] } | undefined;
  const flush = () => {
    if (!current?.user.content) return;
    const invocation = invocationFromEvents(
      current.user.content,
      current.events,
      current.user.invocationId,
    );
    conversation.push({ ...invocation, creationTimestamp: current.user.timestamp / 1000 });
  };
  for (const event of session.events) {
    if (event.author === 'user' && event.content?.parts.some((p) => p.text !== undefined)) {
      flush();
      current = { user: event, events: [] };
    } else if (current) {
      current.events.push(event);
    }
  }
  flush();
  return {
    evalId,
    conversation,
    sessionInput: { appName: session.appName, userId: session.userId, state: {} },
    creationTimestamp: Date.now() / 1000,
  };
}
