import { getText, type Event, type InvocationContext, type Part } from '@adk/core';

/**
 * The parts of the message a remote agent receives: what happened since it last answered (its
 * latest event in the session). The user's messages are sent as they are (text, files, function
 * responses answering the remote agent's calls); other agents' answers are sent as context text
 * (`For context: [name] said: …`); function calls and responses between other agents are left
 * out. Events of other branches are skipped. When the session holds nothing new, the invocation's
 * user message is sent.
 */
export function collectRequestParts(ctx: InvocationContext, agentName: string): Part[] {
  const events = ctx.session.events;
  let start = events.length;
  while (start > 0 && events[start - 1]!.author !== agentName) start--;
  const parts: Part[] = [];
  for (let index = start; index < events.length; index++) {
    const event = events[index]!;
    if (!visibleFrom(event, ctx.branch) || !event.content) continue;
    if (event.author === 'user') {
      for (const part of event.content.parts) if (!part.thought) parts.push(part);
      continue;
    }
    const text = getText(event.content).trim();
    if (text !== '') parts.push({ text: `For context: [${event.author}] said: ${text}` });
  }
  if (
    parts.some(
      (part) =>
        part.text !== undefined || part.functionResponse || part.inlineData || part.fileData,
    )
  ) {
    return parts;
  }
  return [...(ctx.userContent?.parts ?? [])];
}

function visibleFrom(event: Event, branch: string | undefined): boolean {
  if (event.branch === undefined) return true;
  return branch !== undefined && (branch === event.branch || branch.startsWith(`${event.branch}.`));
}
