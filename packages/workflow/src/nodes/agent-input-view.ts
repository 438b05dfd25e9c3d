import {
  createEventActions,
  newEventId,
  workflowRecordOf,
  type Content,
  type Event,
  type Session,
} from '@adk/core';

import { isContent } from './content-input';
import type { NodeContext } from './node-context';

/**
 * What an agent node shows its agent of the conversation (Python's `include_contents`):
 * `'none'`, its input only (with the agent's own events of this execution and the user's answers
 * to its calls), as Python's single-turn agent node; `'default'`, the whole conversation the
 * workflow's branch sees, then the input.
 */
export type AgentNodeContents = 'default' | 'none';

/** The text an agent receives for a node input that is not a `Content`. */
export function inputText(input: unknown): string {
  return typeof input === 'string' ? input : JSON.stringify(input);
}

/** The user content an agent receives for a node input (a `Content` as it is). */
export function inputContent(input: unknown): Content {
  if (isContent(input)) return { role: 'user', parts: input.parts };
  return { role: 'user', parts: [{ text: inputText(input) }] };
}

/**
 * @internal The session as the agent of an agent node sees it: the node's input is shown as a
 * user message on the node's branch without being stored (as Python appends it to the in-memory
 * session only), placed before the execution's first event (a resumed execution sees it where it
 * first saw it). With `'none'` the rest of the conversation is hidden. The view follows the
 * session: events the Runner stores later show in it.
 */
export function agentSessionView(
  ctx: NodeContext,
  input: unknown,
  contents: AgentNodeContents,
): Session {
  const session = ctx.invocation.session;
  const showInput = input !== undefined && !(contents === 'default' && ctx.inputIsUserMessage);
  const inputEvent: Event | undefined = showInput
    ? Object.freeze({
        id: newEventId(),
        invocationId: ctx.invocation.invocationId,
        author: 'user',
        branch: ctx.branch,
        content: inputContent(input),
        actions: createEventActions(),
        timestamp: Date.now(),
      })
    : undefined;
  const runStart = runStartIndex(ctx);
  const events = session.events;
  let at = events.length;
  for (let index = runStart + 1; index < events.length; index++) {
    if (onBranch(events[index] as Event, ctx.branch)) {
      at = index;
      break;
    }
  }
  let seenLength = -1;
  let seenSource: readonly Event[] | undefined;
  let view: Event[] = [];
  const build = (source: readonly Event[]): Event[] => {
    const before = contents === 'none' ? [] : source.slice(0, at);
    const after = source
      .slice(at)
      .filter((event) => contents === 'default' || onBranch(event, ctx.branch) || isAnswer(event));
    return inputEvent ? [...before, inputEvent, ...after] : [...before, ...after];
  };
  return Object.create(session, {
    events: {
      enumerable: true,
      get(): Event[] {
        const source = session.events;
        if (source !== seenSource || source.length !== seenLength) {
          view = build(source);
          seenSource = source;
          seenLength = source.length;
        }
        return view;
      },
    },
  }) as Session;
}

function onBranch(event: Event, branch: string): boolean {
  return event.branch === branch || (event.branch?.startsWith(`${branch}.`) ?? false);
}

/** A user message that only answers calls (a confirmation, a long-running tool's result). */
function isAnswer(event: Event): boolean {
  const parts = event.content?.parts ?? [];
  return (
    event.author === 'user' &&
    parts.length > 0 &&
    parts.every((part) => part.functionResponse !== undefined)
  );
}

/** Index of the start record of the run the node belongs to (its workflow's latest), or -1. */
function runStartIndex(ctx: NodeContext): number {
  const events = ctx.invocation.session.events;
  const workflow = ctx.invocation.agent.name;
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as Event;
    if (event.author !== workflow || event.branch !== ctx.invocation.branch) continue;
    if (workflowRecordOf(event)?.kind === 'start') return index;
  }
  return -1;
}
