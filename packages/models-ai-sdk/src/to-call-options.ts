import type { Content, LlmRequest, Part } from '@adk/core';
import { FunctionCallIdPairing } from '@adk/model-http';

import type { SpecCallOptions, SpecMessage, SpecUserPart } from './spec-types';

/**
 * Core's request as AI SDK call options: the system instruction as a system message, user turns
 * (text and files), model turns (text, reasoning, tool calls with ids paired to their results),
 * function responses as `tool` messages with JSON output, the function declarations as function
 * tools, and the generation settings the specification knows. `providerOptions` pass through.
 */
export function toCallOptions(
  request: LlmRequest,
  signal: AbortSignal | undefined,
): SpecCallOptions {
  const prompt: SpecMessage[] = [];
  if (request.systemInstruction)
    prompt.push({ role: 'system', content: request.systemInstruction });
  const ids = new FunctionCallIdPairing();
  for (const content of request.contents) prompt.push(...toMessages(content, ids));
  const { config } = request;
  const declarations = (config.tools ?? []).flatMap((group) => group.functionDeclarations);
  const options: SpecCallOptions = { prompt };
  if (config.maxOutputTokens !== undefined) options.maxOutputTokens = config.maxOutputTokens;
  if (config.temperature !== undefined) options.temperature = config.temperature;
  if (config.topP !== undefined) options.topP = config.topP;
  if (config.topK !== undefined) options.topK = config.topK;
  if (config.stopSequences !== undefined) options.stopSequences = config.stopSequences;
  if (config.presencePenalty !== undefined) options.presencePenalty = config.presencePenalty;
  if (config.frequencyPenalty !== undefined) options.frequencyPenalty = config.frequencyPenalty;
  if (config.seed !== undefined) options.seed = config.seed;
  if (config.responseSchema !== undefined) {
    options.responseFormat = { type: 'json', schema: config.responseSchema };
  } else if (config.responseMimeType === 'application/json') {
    options.responseFormat = { type: 'json' };
  }
  if (declarations.length > 0) {
    options.tools = declarations.map((declaration) => ({
      type: 'function' as const,
      name: declaration.name,
      ...(declaration.description === undefined ? {} : { description: declaration.description }),
      inputSchema: declaration.parameters ?? { type: 'object', properties: {} },
    }));
  }
  const choice = config.toolChoice;
  if (choice !== undefined) {
    options.toolChoice =
      typeof choice === 'string' ? { type: choice } : { type: 'tool', toolName: choice.name };
  }
  if (config.providerOptions) options.providerOptions = config.providerOptions;
  if (signal) options.abortSignal = signal;
  return options;
}

function toMessages(content: Content, ids: FunctionCallIdPairing): SpecMessage[] {
  if (content.role === 'model') {
    const parts: Extract<SpecMessage, { role: 'assistant' }>['content'] = [];
    for (const part of content.parts) {
      if (part.functionCall) {
        parts.push({
          type: 'tool-call',
          toolCallId: ids.callId(part.functionCall),
          toolName: part.functionCall.name,
          input: part.functionCall.args ?? {},
        });
      } else if (part.text !== undefined && part.thought) {
        parts.push({ type: 'reasoning', text: part.text });
      } else if (part.text !== undefined && part.text !== '') {
        parts.push({ type: 'text', text: part.text });
      }
    }
    return parts.length > 0 ? [{ role: 'assistant', content: parts }] : [];
  }
  const messages: SpecMessage[] = [];
  const results: Extract<SpecMessage, { role: 'tool' }>['content'] = [];
  const userParts: SpecUserPart[] = [];
  for (const part of content.parts) {
    if (part.functionResponse) {
      results.push({
        type: 'tool-result',
        toolCallId: ids.responseId(part.functionResponse),
        toolName: part.functionResponse.name,
        output: { type: 'json', value: part.functionResponse.response },
      });
    } else {
      const userPart = toUserPart(part);
      if (userPart) userParts.push(userPart);
    }
  }
  if (results.length > 0) messages.push({ role: 'tool', content: results });
  if (userParts.length > 0) messages.push({ role: 'user', content: userParts });
  return messages;
}

function toUserPart(part: Part): SpecUserPart | undefined {
  if (part.text !== undefined && !part.thought) return { type: 'text', text: part.text };
  if (part.inlineData) {
    return {
      type: 'file',
      data: part.inlineData.data,
      mediaType: part.inlineData.mimeType,
      ...(part.inlineData.displayName ? { filename: part.inlineData.displayName } : {}),
    };
  }
  if (part.fileData) {
    return {
      type: 'file',
      data: new URL(part.fileData.fileUri),
      mediaType: part.fileData.mimeType ?? 'application/octet-stream',
    };
  }
  return undefined;
}
