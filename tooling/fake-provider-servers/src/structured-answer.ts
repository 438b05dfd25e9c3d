import { chunkString } from './sse-writer';
import type { FakeReply } from './types';

/**
 * Renders a reply's `json` (a structured-output answer) the way a model answers when asked for
 * JSON: as the answer text (streamed in 8-character pieces), or, when the request forces one tool
 * (Anthropic's structured output through a forced tool), as that tool's call with the value as
 * its input. Replies without `json` are returned as they are.
 */
export function withStructuredAnswer(reply: FakeReply, forcedTool?: string): FakeReply {
  if (reply.json === undefined) return reply;
  if (forcedTool) {
    return {
      ...reply,
      toolCalls: [...(reply.toolCalls ?? []), { name: forcedTool, args: reply.json }],
    };
  }
  const text = JSON.stringify(reply.json);
  return { ...reply, text, textChunks: reply.textChunks ?? chunkString(text, 8) };
}
