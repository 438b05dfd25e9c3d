import type { Event } from '../events';
import { isPauseEvent } from '../events/is-pause-event';
import type { BaseAgent } from './base-agent';
import type { AgentNode, InvocationContext } from '../invocation/invocation-context';

/**
 * @internal Where the workflow agent `agent` starts: the index of its sub-agent that leads to the
 * paused agent this invocation resumes (`ctx.resumeFrom`), or -1 when it resumes nothing below
 * `agent`. Clears `ctx.resumeFrom` when that sub-agent is the paused agent itself, so the
 * workflow's later passes (a loop's next iteration) start from the beginning.
 */
export function resumeIndex(agent: AgentNode, ctx: InvocationContext): number {
  const target = ctx.resumeFrom;
  if (target === undefined) return -1;
  let child = target;
  while (child.parentAgent !== undefined && child.parentAgent !== agent) child = child.parentAgent;
  if (child.parentAgent !== agent) return -1;
  if (child === target) ctx.resumeFrom = undefined;
  return agent.subAgents.indexOf(child);
}

/**
 * @internal True when the invocation of `ctx` is paused on `ctx`'s branch: the latest event it
 * stored there has long-running calls (a confirmation or credential request, a long-running tool
 * still working), or is a graph workflow's pause record (which lists no call: the call is listed
 * once, by the event that made it). A sub-agent ends its turn on such an event; the workflow agents above it then
 * stop too, and the user's answer resumes them (see the Runner). One step back for most calls.
 */
export function isPaused(ctx: InvocationContext): boolean {
  const events = ctx.session.events;
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as Event;
    if (event.invocationId !== ctx.invocationId) return false;
    if (event.branch !== ctx.branch) continue;
    return isPauseEvent(event);
  }
  return false;
}

/**
 * @internal The passes `loop` completed before the invocations that paused inside it: read back
 * from the stored events of its sub-agents (on its branch), from the current invocation back to
 * the message that started the loop (answers to paused calls are crossed), counting each time the
 * sub-agent that spoke comes earlier in the loop than the one that spoke after it.
 */
export function completedPasses(loop: BaseAgent, ctx: InvocationContext): number {
  const events = ctx.session.events;
  const branchPrefix = ctx.branch === undefined ? undefined : `${ctx.branch}.`;
  let passes = 0;
  let later = -1;
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as Event;
    if (event.invocationId === ctx.invocationId) continue;
    if (event.author === 'user') {
      if (event.content?.parts.some((part) => part.functionResponse !== undefined)) continue;
      break;
    }
    if (
      branchPrefix !== undefined &&
      event.branch !== ctx.branch &&
      !event.branch?.startsWith(branchPrefix)
    ) {
      continue;
    }
    if (event.author === loop.name) continue;
    const child = loop.subAgents.findIndex((sub) => sub.findAgent(event.author) !== undefined);
    if (child < 0) break;
    if (later >= 0 && child > later) passes++;
    later = child;
  }
  return passes;
}

/**
 * Marks an agent that resumes its sub-agents' paused calls itself (a graph workflow of
 * `@adk/workflow`): set `[RESUMES_SUB_AGENTS] = true` on it, and the Runner starts it (or the
 * outermost Sequential/Loop agent above it) when the answer to a sub-agent's call arrives, with
 * `ctx.resumeFrom` set to that sub-agent, as it does for Sequential and Loop agents.
 */
export const RESUMES_SUB_AGENTS: unique symbol = Symbol.for('adk.agent.resumesSubAgents');

/** True when `agent` carries the {@link RESUMES_SUB_AGENTS} mark. */
export function resumesSubAgents(agent: BaseAgent): boolean {
  return (agent as unknown as Record<symbol, unknown>)[RESUMES_SUB_AGENTS] === true;
}

export { DELEGATION_TOOL, delegationToolOf } from '../tools/delegation-tool';
