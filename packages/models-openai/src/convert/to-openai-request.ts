import type { Content, GenerateContentConfig, LlmRequest, Part } from '@adk/core';
import { InvalidArgumentError } from '@adk/core';
import { FunctionCallIdPairing } from '@adk/model-http';

import type {
  OpenAIContentPart,
  OpenAIMessage,
  OpenAIRequest,
  OpenAIToolCall,
} from './openai-wire';
import { toReasoningEffort } from './openai-reasoning';
import { toWebSearchOptions } from './openai-web-search';

/** Request options that depend on the endpoint rather than on the request. */
export interface OpenAIRequestOptions {
  model: string;
  /** Role of the system instruction message. Default `system`. */
  systemRole?: 'system' | 'developer';
  /** Field carrying `maxOutputTokens`. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
}

const AUDIO_FORMATS: Record<string, string> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
};

/**
 * Converts a provider-neutral request into a Chat Completions body: the system instruction as the
 * first message, model turns as `assistant` messages with `tool_calls`, each function response as
 * a `role: "tool"` message with its `tool_call_id` (right after the assistant message, before any
 * user text), tool declarations as `tools[].function`. Thoughts are not sent back.
 * `providerOptions.openai` is merged into the body (e.g. `reasoning_effort`, `user`).
 */
export function toOpenAIRequest(request: LlmRequest, options: OpenAIRequestOptions): OpenAIRequest {
  const config = request.config ?? {};
  const messages: OpenAIMessage[] = [];
  if (request.systemInstruction)
    messages.push({ role: options.systemRole ?? 'system', content: request.systemInstruction });
  const ids = new FunctionCallIdPairing();
  for (const content of request.contents) messages.push(...toMessages(content, ids));
  const body: OpenAIRequest = { model: options.model, messages };
  const declarations = (config.tools ?? []).flatMap((group) => group.functionDeclarations);
  if (declarations.length > 0) {
    body.tools = declarations.map((declaration) => {
      const fn: NonNullable<OpenAIRequest['tools']>[number]['function'] = {
        name: declaration.name,
        parameters: declaration.parameters ?? { type: 'object', properties: {} },
      };
      if (declaration.description) fn.description = declaration.description;
      return { type: 'function', function: fn };
    });
  }
  const choice = toToolChoice(config);
  if (choice) body.tool_choice = choice;
  copy(body, 'temperature', config.temperature);
  copy(body, 'top_p', config.topP);
  copy(body, options.maxTokensField, config.maxOutputTokens);
  if (config.stopSequences?.length) body.stop = config.stopSequences;
  copy(body, 'presence_penalty', config.presencePenalty);
  copy(body, 'frequency_penalty', config.frequencyPenalty);
  copy(body, 'seed', config.seed);
  copy(body, 'n', config.candidateCount);
  if (config.responseSchema) {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: 'response', schema: config.responseSchema },
    };
  } else if (config.responseMimeType === 'application/json') {
    body.response_format = { type: 'json_object' };
  }
  const effort = toReasoningEffort(config.thinkingConfig);
  if (effort) body.reasoning_effort = effort;
  const webSearch = toWebSearchOptions(config.providerTools);
  if (webSearch) body.web_search_options = webSearch;
  Object.assign(body, config.providerOptions?.openai);
  return body;
}

function toMessages(content: Content, ids: FunctionCallIdPairing): OpenAIMessage[] {
  if (content.role === 'model' || content.role === 'assistant') {
    let text = '';
    const toolCalls: OpenAIToolCall[] = [];
    for (const part of content.parts) {
      if (part.functionCall) {
        toolCalls.push({
          id: ids.callId(part.functionCall),
          type: 'function',
          function: {
            name: part.functionCall.name,
            arguments: JSON.stringify(part.functionCall.args ?? {}),
          },
        });
      } else if (part.text !== undefined && !part.thought) {
        text += part.text;
      }
    }
    if (!text && toolCalls.length === 0) return [];
    const message: OpenAIMessage = { role: 'assistant', content: text || null };
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    return [message];
  }
  const out: OpenAIMessage[] = [];
  const userParts: OpenAIContentPart[] = [];
  for (const part of content.parts) {
    if (part.functionResponse) {
      out.push({
        role: 'tool',
        tool_call_id: ids.responseId(part.functionResponse),
        content: JSON.stringify(part.functionResponse.response),
      });
    } else {
      const converted = toUserPart(part);
      if (converted) userParts.push(converted);
    }
  }
  if (userParts.length > 0) {
    const textOnly = userParts.every((p) => p.type === 'text');
    out.push({
      role: 'user',
      content: textOnly ? userParts.map((p) => (p as { text: string }).text).join('\n') : userParts,
    });
  }
  return out;
}

function toUserPart(part: Part): OpenAIContentPart | undefined {
  if (part.inlineData) {
    const { mimeType, data, displayName } = part.inlineData;
    if (mimeType.startsWith('image/'))
      return { type: 'image_url', image_url: { url: `data:${mimeType};base64,${data}` } };
    const format = AUDIO_FORMATS[mimeType];
    if (format) return { type: 'input_audio', input_audio: { data, format } };
    if (mimeType === 'application/pdf') {
      return {
        type: 'file',
        file: {
          filename: displayName ?? 'document.pdf',
          file_data: `data:${mimeType};base64,${data}`,
        },
      };
    }
    if (mimeType.startsWith('text/'))
      return { type: 'text', text: Buffer.from(data, 'base64').toString('utf8') };
    throw new InvalidArgumentError({
      message: `Chat Completions accepts images, wav/mp3 audio, PDF and text; got inline data of type "${mimeType}".`,
      argument: 'contents',
    });
  }
  if (part.fileData) return { type: 'image_url', image_url: { url: part.fileData.fileUri } };
  if (part.text !== undefined && !part.thought && part.text !== '')
    return { type: 'text', text: part.text };
  return undefined;
}

function toToolChoice(config: GenerateContentConfig): OpenAIRequest['tool_choice'] {
  const choice = config.toolChoice;
  if (choice === undefined || typeof choice === 'string') return choice;
  return { type: 'function', function: { name: choice.name } };
}

function copy(body: OpenAIRequest, key: string, value: unknown): void {
  if (value !== undefined) body[key] = value;
}
