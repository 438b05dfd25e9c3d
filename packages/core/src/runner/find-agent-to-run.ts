import type { BaseAgent } from '../agents/base-agent';
import { LlmAgent } from '../agents/llm-agent';
import type { Session } from '../sessions/session';

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
 * The agent that answers the next user message: the author of the latest event (user events
 * skipped) that is the root, or a routable agent of the tree ({@link isRoutableAgent}); authors not
 * in the tree and non-routable agents are skipped. Defaults to the root.
 */
export function findAgentToRun(session: Session, root: BaseAgent): BaseAgent {
  const events = session.events;
  for (let index = events.length - 1; index >= 0; index--) {
    const author = events[index]!.author;
    if (author === 'user') continue;
    if (author === root.name) return root;
    const agent = root.findAgent(author);
    if (agent && isRoutableAgent(agent)) return agent;
  }
  return root;
}
