import type { BaseAgent } from '../agents/base-agent';
import type { Event } from '../events';
import { workflowRecordOf } from './run-records';

/**
 * The agent a plain user message goes to because it paused to wait for the user's next message
 * (a graph workflow whose task agent asked the user something): when the session's latest event
 * is a user message without function responses, and the latest event before it is such a pause
 * (a run record of kind `interrupt` with `awaitsMessage`, listed as waiting by
 * `longRunningToolIds`) by an agent of the tree, that agent; else `undefined`.
 *
 * This is the plain-message counterpart of the function-response rule of `findAgentToRun`: the
 * agent that waits receives the answer, wherever it sits (under a `SequentialAgent` too, which the
 * Runner then starts from it).
 */
export function findMessageAwaitingAgent(
  events: readonly Event[],
  root: BaseAgent,
): BaseAgent | undefined {
  const last = events[events.length - 1];
  if (!last || last.author !== 'user') return undefined;
  if (last.content?.parts.some((part) => part.functionResponse !== undefined)) return undefined;
  for (let index = events.length - 2; index >= 0; index--) {
    const event = events[index] as Event;
    if (event.author === 'user') continue;
    if (!event.longRunningToolIds?.length) return undefined;
    const record = workflowRecordOf(event);
    if (record?.kind !== 'interrupt' || record.awaitsMessage !== true) return undefined;
    return root.findAgent(event.author);
  }
  return undefined;
}
