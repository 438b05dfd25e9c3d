import type { FinishReason, FunctionCall, LlmResponse, Part, UsageMetadata } from '@adk/core';
import { newFunctionCallId } from '@adk/model-http';

import type { OpenAIResponse, OpenAIUsage } from './openai-wire';
import { applyAnnotations } from './openai-web-search';

/** Maps a Chat Completions `finish_reason` onto an ADK finish reason. */
export function toFinishReason(reason: string | null | undefined): FinishReason | undefined {
  switch (reason) {
    case null:
    case undefined:
      return undefined;
    case 'stop':
    case 'tool_calls':
    case 'function_call':
    case 'eos':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    default:
      return 'OTHER';
  }
}

/** Sets finish reason, and `errorCode`/`errorMessage` when it is not a normal stop. */
export function applyFinish(response: LlmResponse, reason: string | null | undefined): void {
  const finishReason = toFinishReason(reason);
  if (!finishReason) return;
  response.finishReason = finishReason;
  if (finishReason === 'STOP') return;
  response.errorCode = finishReason;
  response.errorMessage =
    finishReason === 'MAX_TOKENS'
      ? 'The response reached the maximum number of output tokens.'
      : finishReason === 'SAFETY'
        ? 'The response was filtered by the content filter.'
        : `The model stopped: ${String(reason)}.`;
}

/** Chat Completions usage in ADK terms (`candidatesTokenCount` excludes reasoning tokens). */
export function toUsage(usage: OpenAIUsage): UsageMetadata {
  const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? 0;
  const result: UsageMetadata = {
    promptTokenCount: usage.prompt_tokens ?? 0,
    candidatesTokenCount: (usage.completion_tokens ?? 0) - reasoning,
    totalTokenCount:
      usage.total_tokens ?? (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0),
  };
  if (reasoning > 0) result.thoughtsTokenCount = reasoning;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  if (cached > 0) result.cachedContentTokenCount = cached;
  return result;
}

/**
 * Parses a tool call's JSON arguments. Returns undefined when the model produced arguments that
 * are not a JSON object (the response then reports `MALFORMED_FUNCTION_CALL`).
 */
export function parseToolCall(call: {
  id?: string;
  name: string;
  arguments: string;
}): FunctionCall | undefined {
  let args: unknown = {};
  if (call.arguments.trim() !== '') {
    try {
      args = JSON.parse(call.arguments);
    } catch {
      return undefined;
    }
  }
  if (!args || typeof args !== 'object' || Array.isArray(args)) return undefined;
  return {
    id: call.id || newFunctionCallId(),
    name: call.name,
    args: args as Record<string, unknown>,
  };
}

/**
 * Tool call arguments as text. The API sends a JSON string; a few compatible servers send the
 * object itself, which is accepted too.
 */
export function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value);
}

/**
 * Marks a response whose tool call arguments are not a JSON object: `MALFORMED_FUNCTION_CALL`,
 * unless the output limit cut them (`finish_reason: "length"`), which the response already
 * reports as `MAX_TOKENS`.
 */
export function markMalformedCall(
  response: LlmResponse,
  name: string,
  args: string,
  reason: string | null | undefined,
): void {
  if (toFinishReason(reason) === 'MAX_TOKENS') return;
  response.finishReason = 'MALFORMED_FUNCTION_CALL';
  response.errorCode = 'MALFORMED_FUNCTION_CALL';
  response.errorMessage = `The model called "${name}" with arguments that are not a JSON object: ${args.slice(0, 200)}`;
}

/** Converts a non-streamed Chat Completions answer into an {@link LlmResponse}. */
export function fromOpenAIResponse(data: OpenAIResponse): LlmResponse {
  const choice = data.choices[0];
  const message = choice?.message ?? {};
  const response: LlmResponse = { turnComplete: true };
  const parts: Part[] = [];
  const reasoning = message.reasoning_content ?? message.reasoning;
  if (reasoning) parts.push({ text: reasoning, thought: true });
  if (message.content) parts.push({ text: message.content });
  applyFinish(response, choice?.finish_reason);
  if (message.refusal) {
    parts.push({ text: message.refusal });
    response.finishReason = 'SAFETY';
    response.errorCode = 'SAFETY';
    response.errorMessage = message.refusal;
  }
  // One call with arguments that are not a JSON object spoils the batch: none is returned.
  const calls: Part[] = [];
  let spoiled = false;
  for (const call of message.tool_calls ?? []) {
    const args = argumentsText(call.function.arguments);
    const parsed = parseToolCall({ id: call.id, name: call.function.name, arguments: args });
    if (parsed) calls.push({ functionCall: parsed });
    else if (!spoiled) {
      spoiled = true;
      markMalformedCall(response, call.function.name, args, choice?.finish_reason);
    }
  }
  if (!spoiled) parts.push(...calls);
  if (parts.length > 0) response.content = { role: 'model', parts };
  if (data.usage) response.usageMetadata = toUsage(data.usage);
  if (data.model) response.modelVersion = data.model;
  applyAnnotations(response, message.annotations);
  return response;
}
