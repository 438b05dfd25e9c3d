import type { LlmResponse, Part, UsageMetadata } from '@adk/core';
import { newFunctionCallId } from '@adk/model-http';

import { isStreamedCallPiece } from '../stream/function-call-assembler';
import type { GeminiPart, GeminiResponse, GeminiUsageMetadata } from './gemini-wire';

const NOT_ERRORS = new Set(['STOP', 'FINISH_REASON_UNSPECIFIED']);

/**
 * Converts one Gemini response (or one streamed chunk) into an {@link LlmResponse}. Function calls
 * without an id get a client id (`adk-<uuid>`); pieces of a call whose arguments are streamed
 * (`partialArgs`, `willContinue`, an empty end marker) are left out, for the stream reader to
 * assemble. A blocked prompt or a non-STOP finish reason sets
 * `errorCode`/`errorMessage` (the Gemini ADK convention), keeping any content that arrived.
 */
export function fromGeminiResponse(response: GeminiResponse): LlmResponse {
  const result: LlmResponse = {};
  const candidate = response.candidates?.[0];
  const parts = (candidate?.content?.parts ?? [])
    .map(toPart)
    .filter((p): p is Part => p !== undefined);
  if (parts.length > 0) result.content = { role: 'model', parts };
  if (response.usageMetadata) result.usageMetadata = toUsage(response.usageMetadata);
  if (response.modelVersion) result.modelVersion = response.modelVersion;
  const blockReason = response.promptFeedback?.blockReason;
  if (blockReason) {
    result.finishReason = blockReason === 'SAFETY' ? 'SAFETY' : 'OTHER';
    result.errorCode = blockReason;
    result.errorMessage =
      response.promptFeedback?.blockReasonMessage ?? `The prompt was blocked (${blockReason}).`;
    return result;
  }
  if (candidate?.finishReason) {
    result.finishReason = candidate.finishReason;
    if (!NOT_ERRORS.has(candidate.finishReason)) {
      result.errorCode = candidate.finishReason;
      result.errorMessage = candidate.finishMessage ?? describeFinish(candidate.finishReason);
    }
  }
  const metadata: Record<string, unknown> = {};
  if (candidate?.groundingMetadata) metadata.groundingMetadata = candidate.groundingMetadata;
  if (candidate?.citationMetadata) metadata.citationMetadata = candidate.citationMetadata;
  if (Object.keys(metadata).length > 0) result.customMetadata = metadata;
  return result;
}

/** Converts one Gemini part; undefined for parts with nothing to keep (and streamed-call pieces). */
export function toPart(part: GeminiPart): Part | undefined {
  const out: Part = {};
  if (part.functionCall) {
    if (isStreamedCallPiece(part.functionCall) || !part.functionCall.name) return undefined;
    out.functionCall = {
      id: part.functionCall.id ?? newFunctionCallId(),
      name: part.functionCall.name,
      args: part.functionCall.args ?? {},
    };
  } else if (part.inlineData) {
    out.inlineData = { mimeType: part.inlineData.mimeType, data: part.inlineData.data };
  } else if (part.fileData) {
    out.fileData = { fileUri: part.fileData.fileUri };
    if (part.fileData.mimeType) out.fileData.mimeType = part.fileData.mimeType;
  } else if (part.text !== undefined) {
    out.text = part.text;
    if (part.thought) out.thought = true;
  } else if (part.executableCode?.code !== undefined) {
    out.text = `\`\`\`${(part.executableCode.language ?? '').toLowerCase()}\n${part.executableCode.code}\n\`\`\``;
  } else if (part.codeExecutionResult?.output !== undefined) {
    out.text = part.codeExecutionResult.output;
  } else if (!part.thoughtSignature) {
    return undefined;
  } else {
    out.text = '';
  }
  if (part.thoughtSignature) out.thoughtSignature = part.thoughtSignature;
  return out;
}

function toUsage(usage: GeminiUsageMetadata): UsageMetadata {
  const out: UsageMetadata = {};
  if (usage.promptTokenCount !== undefined) out.promptTokenCount = usage.promptTokenCount;
  if (usage.candidatesTokenCount !== undefined)
    out.candidatesTokenCount = usage.candidatesTokenCount;
  if (usage.totalTokenCount !== undefined) out.totalTokenCount = usage.totalTokenCount;
  if (usage.cachedContentTokenCount !== undefined)
    out.cachedContentTokenCount = usage.cachedContentTokenCount;
  if (usage.thoughtsTokenCount !== undefined) out.thoughtsTokenCount = usage.thoughtsTokenCount;
  return out;
}

function describeFinish(reason: string): string {
  switch (reason) {
    case 'MAX_TOKENS':
      return 'The response reached the maximum number of output tokens.';
    case 'SAFETY':
      return 'The response was blocked for safety reasons.';
    case 'RECITATION':
      return 'The response was blocked because it recites training data.';
    case 'MALFORMED_FUNCTION_CALL':
      return 'The model produced a malformed function call.';
    default:
      return `The model stopped: ${reason}.`;
  }
}
