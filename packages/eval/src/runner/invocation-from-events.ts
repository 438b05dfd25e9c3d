import {
  isFinalResponse,
  type Content,
  type Event,
  type FunctionCall,
  type FunctionResponse,
  type Part,
} from '@adk/core';

import type { Invocation } from '../schema';

/**
 * The {@link Invocation} an agent produced for `userContent`: its final response (the last final
 * event with text), the tool calls and responses in order, and the other agents' text on the way
 * as intermediate responses, as Python ADK records an eval run. Partial (streamed) events are
 * skipped.
 */
export function invocationFromEvents(
  userContent: Content,
  events: readonly Event[],
  invocationId?: string,
): Invocation {
  const toolUses: FunctionCall[] = [];
  const toolResponses: FunctionResponse[] = [];
  const intermediateResponses: [string, Part[]][] = [];
  let finalResponse: Content | undefined;
  let finalAuthor: string | undefined;
  for (const event of events) {
    if (event.partial || event.author === 'user' || !event.content) continue;
    for (const part of event.content.parts) {
      if (part.functionCall) toolUses.push(part.functionCall);
      if (part.functionResponse) toolResponses.push(part.functionResponse);
    }
    const hasText = event.content.parts.some((p) => typeof p.text === 'string' && !p.thought);
    if (isFinalResponse(event) && hasText) {
      if (finalResponse && finalAuthor !== undefined) {
        intermediateResponses.push([finalAuthor, finalResponse.parts]);
      }
      finalResponse = event.content;
      finalAuthor = event.author;
    }
  }
  return {
    invocationId: invocationId ?? events.find((e) => e.invocationId)?.invocationId ?? '',
    userContent,
    ...(finalResponse ? { finalResponse } : {}),
    intermediateData: { toolUses, toolResponses, intermediateResponses },
    creationTimestamp: Date.now() / 1000,
  };
}
