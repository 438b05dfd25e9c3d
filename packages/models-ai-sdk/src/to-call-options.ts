import type { Content, LlmRequest, Part } from '@adk/core';
import { FunctionCallIdPairing } from '@adk/model-http';

import type { ProviderFamily } from './provider-family';
import { decodeProviderMetadata, EMPTY_THOUGHT_TEXT } from './provider-metadata';
import { toProviderTools } from './provider-tools';
import type { SpecCallOptions, SpecMessage, SpecUserPart } from './spec-types';
import { thinkingCallOptions } from './thinking-options';

/** The model a request is converted for. */
export interface TargetModel {
  family: ProviderFamily;
  /** `v2`, `v3` or `v4`. */
  version: string;
  name: string;
}

/**
 * Core's request as AI SDK call options: the system instruction as a system message, user turns
 * (text and files), model turns (text, reasoning and tool calls with the provider metadata kept
 * in their `thoughtSignature`, call ids paired to their results), function responses as `tool`
 * messages with JSON output, the function declarations as function tools, provider tools as the
 * family's provider tools, the thinking config as the family's reasoning options (and v4's
 * `reasoning`), and the generation settings the specification knows. `config.providerOptions`
 * win over the options derived from the thinking config, key by key.
 */
export function toCallOptions(
  request: LlmRequest,
  signal: AbortSignal | undefined,
  target: TargetModel = { family: undefined, version: 'v3', name: request.model },
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
  const tools: NonNullable<SpecCallOptions['tools']> = declarations.map((declaration) => ({
    type: 'function' as const,
    name: declaration.name,
    ...(declaration.description === undefined ? {} : { description: declaration.description }),
    inputSchema: declaration.parameters ?? { type: 'object', properties: {} },
  }));
  if (config.providerTools?.length) {
    tools.push(
      ...toProviderTools(config.providerTools, target.family, target.version, target.name),
    );
  }
  if (tools.length > 0) options.tools = tools;
  const choice = config.toolChoice;
  if (choice !== undefined) {
    options.toolChoice =
      typeof choice === 'string' ? { type: choice } : { type: 'tool', toolName: choice.name };
  }
  const thinking = thinkingCallOptions(config.thinkingConfig, target.family, target.version);
  if (thinking.reasoning !== undefined) options.reasoning = thinking.reasoning;
  const providerOptions = mergeOptions(thinking.providerOptions, config.providerOptions);
  if (providerOptions) options.providerOptions = providerOptions;
  if (signal) options.abortSignal = signal;
  return options;
}

function toMessages(content: Content, ids: FunctionCallIdPairing): SpecMessage[] {
  if (content.role === 'model') {
    const parts: Extract<SpecMessage, { role: 'assistant' }>['content'] = [];
    for (const part of content.parts) {
      if (part.functionCall) {
        const providerOptions = decodeProviderMetadata(part.thoughtSignature);
        parts.push({
          type: 'tool-call',
          toolCallId: ids.callId(part.functionCall),
          toolName: part.functionCall.name,
          input: part.functionCall.args ?? {},
          ...(providerOptions ? { providerOptions } : {}),
        });
      } else if (part.text !== undefined && part.thought) {
        const providerOptions = decodeProviderMetadata(part.thoughtSignature);
        parts.push({
          type: 'reasoning',
          text: providerOptions && part.text === EMPTY_THOUGHT_TEXT ? '' : part.text,
          ...(providerOptions ? { providerOptions } : {}),
        });
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

/** Derived options under the caller's, merged per provider key (the caller's members win). */
function mergeOptions(
  derived: Record<string, Record<string, unknown>> | undefined,
  given: Record<string, Record<string, unknown>> | undefined,
): Record<string, Record<string, unknown>> | undefined {
  if (!derived) return given;
  const merged: Record<string, Record<string, unknown>> = { ...derived };
  for (const [key, value] of Object.entries(given ?? {})) {
    merged[key] = { ...(merged[key] ?? {}), ...value };
  }
  return merged;
}
