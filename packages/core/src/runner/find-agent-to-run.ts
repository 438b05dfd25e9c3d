import type { BaseAgent } from '../agents/base-agent';
import { LlmAgent } from '../agents/llm-agent';
import { LoopAgent } from '../agents/loop-agent';
import { SequentialAgent } from '../agents/sequential-agent';
import { resumesSubAgents } from '../agents/workflow-resume';
import { findResumedCaller } from '../history/find-caller';
import { withoutRewoundEvents } from '../history/rewound-events';
import type { Session } from '../sessions/session';
import { findMessageAwaitingAgent } from './awaiting-message';

/**
 * True when a conversation may stay with `agent` on the next turn: it and every ancestor are
 * `LlmAgent`s that may transfer back to their parent (so the user is never stuck with an agent
 * that cannot hand control back).
 */
export function isRoutableAgent(agent: BaseAgent): boolean {
  for (let current: BaseAgent | undefined = agent; current; current = current.parentAgent) {
    if (!(current instanceof LlmAgent) || current.disallowTransferToParent) return false;
  }
  return true;
}

/**
 * The agent that answers the next user message: the agent whose function call the message answers
 * (a long-running tool's result, a confirmation), when it is in the tree; for a plain message, the
 * agent that paused to wait for the user's next message ({@link findMessageAwaitingAgent}); else
 * the author of the latest event (user events skipped) that is the root, or a routable agent of
 * the tree ({@link isRoutableAgent}); authors not in the tree and non-routable agents are skipped.
 * Defaults to the root. Events a rewind removed are not considered.
 */
export function findAgentToRun(session: Session, root: BaseAgent): BaseAgent {
  const events = withoutRewoundEvents(session.events);
  // A message answering a function call (long-running result, confirmation) resumes its caller.
  const caller = findResumedCaller(events);
  const resumed = caller === undefined ? undefined : root.findAgent(caller);
  if (resumed) return resumed;
  const awaiting = caller === undefined ? findMessageAwaitingAgent(events, root) : undefined;
  if (awaiting) return awaiting;
  for (let index = events.length - 1; index >= 0; index--) {
    const author = events[index]!.author;
    if (author === 'user') continue;
    if (author === root.name) return root;
    const agent = root.findAgent(author);
    if (agent && isRoutableAgent(agent)) return agent;
  }
  return root;
}

/**
 * The agent to start to resume a call of `caller`: the outermost of the `SequentialAgent`s and
 * `LoopAgent`s directly above it (so the workflow continues after `caller` answers), or `caller`
 * itself when its parent is another kind of agent (an `LlmAgent`, a `ParallelAgent`: a parallel
 * branch resumes only itself) or it has none. Agents marked `RESUMES_SUB_AGENTS` (the graph
 * workflows of `@adk/workflow`) are climbed like Sequential and Loop agents. The Runner then sets
 * `resumeFrom` to `caller`.
 */
export function findResumeEntry(caller: BaseAgent): BaseAgent {
  let entry = caller;
  for (
    let parent = caller.parentAgent;
    parent instanceof SequentialAgent ||
    parent instanceof LoopAgent ||
    (parent !== undefined && resumesSubAgents(parent));
    parent = parent.parentAgent
  ) {
    entry = parent;
  }
  return entry;
}
