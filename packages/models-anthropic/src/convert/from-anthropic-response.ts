import type { FinishReason, LlmResponse, Part, UsageMetadata } from '@adk/core';

import type { AnthropicContentBlock, AnthropicResponse, AnthropicUsage } from './anthropic-wire';
import { ServerToolReader, type WireBlock } from './server-tool-blocks';

/** Maps Anthropic `stop_reason` values onto ADK finish reasons. */
export function toFinishReason(stopReason: string | null | undefined): FinishReason | undefined {
  switch (stopReason) {
    case null:
    case undefined:
      return undefined;
    case 'end_turn':
    case 'stop_sequence':
    case 'tool_use':
    case 'pause_turn':
      return 'STOP';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'MAX_TOKENS';
    case 'refusal':
      return 'SAFETY';
    default:
      return 'OTHER';
  }
}

/** Sets `errorCode`/`errorMessage` on a response whose finish reason is not a normal stop. */
export function applyFinish(response: LlmResponse, stopReason: string | null | undefined): void {
  const finishReason = toFinishReason(stopReason);
  if (!finishReason) return;
  response.finishReason = finishReason;
  if (finishReason === 'MAX_TOKENS') {
    response.errorCode = 'MAX_TOKENS';
    response.errorMessage =
      'The response reached the maximum number of output tokens (max_tokens).';
  } else if (finishReason === 'SAFETY') {
    response.errorCode = 'SAFETY';
    response.errorMessage = 'The model declined to answer (stop_reason "refusal").';
  } else if (finishReason === 'OTHER') {
    response.errorCode = 'OTHER';
    response.errorMessage = `The model stopped: ${String(stopReason)}.`;
  }
}

/** Anthropic usage in ADK terms: prompt tokens include cache reads and writes. */
export function toUsage(usage: AnthropicUsage): UsageMetadata {
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const prompt = (usage.input_tokens ?? 0) + cacheRead + (usage.cache_creation_input_tokens ?? 0);
  const output = usage.output_tokens ?? 0;
  const result: UsageMetadata = {
    promptTokenCount: prompt,
    candidatesTokenCount: output,
    totalTokenCount: prompt + output,
  };
  if (cacheRead > 0) result.cachedContentTokenCount = cacheRead;
  return result;
}

/**
 * Prefix of the `thoughtSignature` of a part standing for a `redacted_thinking` block; the rest is
 * the block's encrypted `data`, sent back unchanged on the next turn.
 */
export const REDACTED_THINKING_PREFIX = 'anthropic-redacted-thinking:';

/** Text of a part standing for a `redacted_thinking` block (the reasoning itself is encrypted). */
export const REDACTED_THINKING_TEXT = '[redacted thinking]';

/** Converts one content block of an answer into an ADK part. */
export function toPart(block: AnthropicContentBlock): Part | undefined {
  switch (block.type) {
    case 'text':
      return { text: block.text };
    case 'thinking':
      return { text: block.thinking, thought: true, thoughtSignature: block.signature };
    case 'redacted_thinking':
      return {
        text: REDACTED_THINKING_TEXT,
        thought: true,
        thoughtSignature: `${REDACTED_THINKING_PREFIX}${block.data}`,
      };
    case 'tool_use':
      // Checked by `settleParts`: an input that is not an object (`null` included) is no call.
      return {
        functionCall: {
          id: block.id,
          name: block.name,
          args: (block.input === undefined ? {} : block.input) as Record<string, unknown>,
        },
      };
    default:
      return undefined;
  }
}

/**
 * Converts a non-streamed Messages API answer into an {@link LlmResponse}. With
 * `jsonResponseTool`, that tool's input becomes the answer text (structured output). Server tool
 * blocks (web search, code execution) and citations are read by `ServerToolReader`.
 */
export function fromAnthropicResponse(
  message: AnthropicResponse,
  options: { jsonResponseTool?: string } = {},
): LlmResponse {
  const reader = new ServerToolReader();
  const parts: Part[] = [];
  for (const block of message.content as Array<AnthropicContentBlock | WireBlock>) {
    let part: Part | undefined;
    if (block.type === 'tool_use' && block.name === options.jsonResponseTool) {
      part = { text: JSON.stringify(block.input) };
    } else if (ServerToolReader.handles(block.type)) {
      part = reader.read(block as WireBlock);
    } else {
      if (block.type === 'text') reader.text(String(block.text), block.citations as never);
      part = toPart(block as AnthropicContentBlock);
    }
    if (part) parts.push(part);
  }
  const response: LlmResponse = {
    turnComplete: true,
    usageMetadata: toUsage(message.usage),
    modelVersion: message.model,
  };
  reader.apply(response);
  settleParts(response, parts, message.stop_reason);
  return response;
}

/**
 * Puts the final parts and finish reason on a response, streamed or not alike. The API sends a
 * tool's input as an object; anything else (`null`, a string, text that is not JSON from a proxy
 * or a compatible server) cannot be trusted as arguments, so no call of the answer is handed out:
 * the answer is `MAX_TOKENS` when the output limit cut it, else `MALFORMED_FUNCTION_CALL`.
 */
export function settleParts(
  response: LlmResponse,
  parts: Part[],
  stopReason: string | null | undefined,
): void {
  const malformed = parts.find(
    (part) =>
      part.functionCall !== undefined &&
      (typeof part.functionCall.args !== 'object' ||
        part.functionCall.args === null ||
        Array.isArray(part.functionCall.args)),
  );
  const kept = malformed ? parts.filter((part) => part.functionCall === undefined) : parts;
  if (kept.length > 0) response.content = { role: 'model', parts: kept };
  if (malformed && toFinishReason(stopReason) !== 'MAX_TOKENS') {
    response.finishReason = 'MALFORMED_FUNCTION_CALL';
    response.errorCode = 'MALFORMED_FUNCTION_CALL';
    response.errorMessage = `The input of tool "${malformed.functionCall!.name}" is not a JSON object.`;
    return;
  }
  applyFinish(response, stopReason);
}
