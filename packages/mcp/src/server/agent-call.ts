import { isFinalResponse, userContent, type Event, type Runner } from '@adk/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * Run one turn of the agent for `message` in the ADK session `sessionId` (created on first use)
 * and answer with the agent's final text. An error event, or a turn that ends waiting for a human
 * confirmation or a credential (which an MCP client cannot give here), is an `isError` result.
 */
export async function callAgent(
  runner: Runner,
  request: { userId: string; sessionId: string; message: string; signal: AbortSignal },
): Promise<CallToolResult> {
  let answer: Event | undefined;
  let failure: Event | undefined;
  let waiting = false;
  for await (const event of runner.run({
    userId: request.userId,
    sessionId: request.sessionId,
    newMessage: userContent(request.message),
    signal: request.signal,
  })) {
    if (event.partial === true) continue;
    if (event.errorCode !== undefined) failure = event;
    if ((event.longRunningToolIds?.length ?? 0) > 0) waiting = true;
    if (isFinalResponse(event) && event.content?.parts.some((part) => part.text !== undefined)) {
      answer = event;
    }
  }
  if (failure) {
    return {
      isError: true,
      content: [
        { type: 'text', text: `${failure.errorCode}: ${failure.errorMessage ?? ''}`.trim() },
      ],
    };
  }
  const text = (answer?.content?.parts ?? [])
    .filter((part) => part.text !== undefined && part.thought !== true)
    .map((part) => part.text)
    .join('');
  if (waiting && !text) {
    return {
      isError: true,
      content: [
        {
          type: 'text',
          text: 'The agent is waiting for a human confirmation or a credential, which cannot be given over MCP.',
        },
      ],
    };
  }
  return { content: [{ type: 'text', text }] };
}
