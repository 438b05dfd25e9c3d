import type { FinishReason, LlmResponse, Part, UsageMetadata } from '@adk/core';
import { newFunctionCallId } from '@adk/model-http';

import {
  CODE_EXECUTION_TOOLS,
  codeExecutionResultPart,
  executableCodePart,
} from './code-execution';
import { EMPTY_THOUGHT_TEXT, encodeProviderMetadata } from './provider-metadata';
import { applySources, type SpecSource } from './sources';
import type { SpecContent, SpecFinishReason, SpecUsage } from './spec-types';

/** Names of provider-executed web search tools whose `query` input is a search query. */
const WEB_SEARCH_TOOLS = new Set(['web_search', 'google_search', 'web_search_preview']);

/** The unified finish reason (`stop`, `length`...), from v2's string or v3/v4's `{ unified }`. */
export function unifiedFinishReason(reason: SpecFinishReason | undefined): string {
  if (reason === undefined) return 'other';
  return typeof reason === 'string' ? reason : reason.unified;
}

/** Core's finish reason: `length` -> MAX_TOKENS, `content-filter` -> SAFETY, calls and stops STOP. */
export function toFinishReason(reason: SpecFinishReason | undefined): FinishReason {
  switch (unifiedFinishReason(reason)) {
    case 'stop':
    case 'tool-calls':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content-filter':
      return 'SAFETY';
    default:
      return 'OTHER';
  }
}

/** Core's usage from v2's flat counts or v3/v4's token groups (cache reads and reasoning kept). */
export function toUsage(usage: SpecUsage | undefined): UsageMetadata | undefined {
  if (!usage) return undefined;
  let prompt: number | undefined;
  let output: number | undefined;
  let cached: number | undefined;
  let thoughts: number | undefined;
  let total: number | undefined;
  if (typeof usage.inputTokens === 'object' && usage.inputTokens !== null) {
    const nested = usage as Extract<SpecUsage, { inputTokens: object }>;
    prompt = nested.inputTokens.total;
    cached = nested.inputTokens.cacheRead;
    output = nested.outputTokens.total;
    thoughts = nested.outputTokens.reasoning;
  } else {
    const flat = usage as Extract<SpecUsage, { inputTokens: number | undefined }>;
    prompt = flat.inputTokens;
    output = flat.outputTokens;
    total = flat.totalTokens;
    cached = flat.cachedInputTokens;
    thoughts = flat.reasoningTokens;
  }
  const metadata: UsageMetadata = {};
  if (prompt !== undefined) metadata.promptTokenCount = prompt;
  if (output !== undefined) metadata.candidatesTokenCount = output;
  const sum =
    total ??
    (prompt !== undefined || output !== undefined ? (prompt ?? 0) + (output ?? 0) : undefined);
  if (sum !== undefined) metadata.totalTokenCount = sum;
  if (cached !== undefined) metadata.cachedContentTokenCount = cached;
  if (thoughts !== undefined) metadata.thoughtsTokenCount = thoughts;
  return Object.keys(metadata).length > 0 ? metadata : undefined;
}

/** A tool call's input as arguments, or `undefined` when it is not a JSON object. */
export function parseToolInput(input: unknown): Record<string, unknown> | undefined {
  if (input === '' || input === undefined) return {};
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      return undefined;
    }
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * The final response of a call: its parts (text, reasoning as thoughts with their provider
 * metadata kept in `thoughtSignature`, client tool calls likewise; calls the provider ran itself
 * are left out, except code runs, which become `executableCode` / `codeExecutionResult`),
 * grounding and citation metadata from `source` parts and provider-executed web searches, finish
 * reason and usage. A tool call whose input is not a JSON object makes the response a
 * `MALFORMED_FUNCTION_CALL` error without calls, and a content-filter stop a `SAFETY` error, as
 * core's other providers report them.
 */
export function finalResponse(
  content: readonly SpecContent[],
  reason: SpecFinishReason | undefined,
  usage: SpecUsage | undefined,
  modelVersion: string | undefined,
): LlmResponse {
  const parts: Part[] = [];
  let malformed: string | undefined;
  const sources: SpecSource[] = [];
  const queries: string[] = [];
  for (const item of content) {
    if (item.type === 'text' && typeof item.text === 'string') {
      const last = parts.at(-1);
      if (last && last.text !== undefined && !last.thought && !last.functionCall)
        last.text += item.text;
      else parts.push({ text: item.text });
    } else if (item.type === 'reasoning' && typeof item.text === 'string') {
      const signature = encodeProviderMetadata(item.providerMetadata);
      // An empty thought is kept only for its metadata (Anthropic redacted thinking).
      if (item.text === '' && !signature) continue;
      parts.push(
        signature
          ? { text: item.text || EMPTY_THOUGHT_TEXT, thought: true, thoughtSignature: signature }
          : { text: item.text, thought: true },
      );
    } else if (item.type === 'source') {
      sources.push(item as unknown as SpecSource);
    } else if (item.type === 'tool-call' && item.providerExecuted === true) {
      const call = item as Extract<SpecContent, { type: 'tool-call' }>;
      if (CODE_EXECUTION_TOOLS.has(call.toolName)) {
        const code = executableCodePart(parseToolInput(call.input));
        if (code) parts.push(code);
        continue;
      }
      const query = WEB_SEARCH_TOOLS.has(call.toolName)
        ? parseToolInput(call.input)?.query
        : undefined;
      if (typeof query === 'string' && query !== '') queries.push(query);
    } else if (item.type === 'tool-result' && CODE_EXECUTION_TOOLS.has(String(item.toolName))) {
      const result = codeExecutionResultPart(item.result);
      if (result) parts.push(result);
    } else if (item.type === 'tool-call') {
      const call = item as Extract<SpecContent, { type: 'tool-call' }>;
      const args = parseToolInput(call.input);
      if (args === undefined) {
        malformed = call.toolName;
        continue;
      }
      const part: Part = {
        functionCall: { id: call.toolCallId || newFunctionCallId(), name: call.toolName, args },
      };
      const signature = encodeProviderMetadata(call.providerMetadata);
      if (signature) part.thoughtSignature = signature;
      parts.push(part);
    }
  }
  const finishReason = malformed ? 'MALFORMED_FUNCTION_CALL' : toFinishReason(reason);
  const response: LlmResponse = {
    content: {
      role: 'model',
      parts: malformed ? parts.filter((part) => !part.functionCall) : parts,
    },
    turnComplete: true,
    finishReason,
  };
  const usageMetadata = toUsage(usage);
  if (usageMetadata) response.usageMetadata = usageMetadata;
  if (modelVersion) response.modelVersion = modelVersion;
  applySources(response, sources, queries);
  if (malformed) {
    response.errorCode = 'MALFORMED_FUNCTION_CALL';
    response.errorMessage = `The model called "${malformed}" with arguments that are not a JSON object.`;
  } else if (finishReason === 'SAFETY') {
    response.errorCode = 'SAFETY';
    response.errorMessage = 'The provider stopped the answer with its content filter.';
    if (response.content)
      response.content.parts = response.content.parts.filter((part) => !part.functionCall);
  }
  return response;
}
