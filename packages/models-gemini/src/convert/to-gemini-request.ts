import type { Content, GenerateContentConfig, LlmRequest, Part } from '@adk/core';
import { isClientFunctionCallId } from '@adk/model-http';

import type { GeminiContent, GeminiPart, GeminiRequest } from './gemini-wire';

/** Text the Gemini API needs when a request has no contents at all (it rejects empty `contents`). */
export const EMPTY_CONTENTS_TEXT = 'Handle the requests as specified in the System Instruction.';

/** Text of the user turn put first when the contents start with a model turn. */
export const LEADING_USER_TEXT = 'Continue.';

/** Text of the user turn appended when the contents end with a model turn (as the ADKs do). */
export const CONTINUE_TEXT =
  'Continue processing previous requests as instructed. Exit or provide a summary if no more outputs are needed.';

/**
 * Converts a provider-neutral request into a Gemini `generateContent` body.
 *
 * - `systemInstruction` becomes the top-level `systemInstruction`;
 * - empty contents, or contents ending with a model turn, get a final user turn (the API wants
 *   the conversation to end with the user), and contents starting with a model turn get a first
 *   user turn;
 * - tool declarations are sent with `parametersJsonSchema` (full JSON Schema);
 * - ids that ADK invented for function calls (`adk-...`) are not sent back;
 * - `labels` are sent on Vertex AI only; `displayName` of inline/file data is dropped;
 * - with `streamFunctionCallArguments` and tools, `toolConfig.functionCallingConfig` asks for
 *   function-call arguments streamed in pieces (`partialArgs`, Gemini 3);
 * - `providerOptions.gemini` is merged into the body (e.g. `safetySettings`, `cachedContent`).
 */
export function toGeminiRequest(
  request: LlmRequest,
  options: { vertex?: boolean; streamFunctionCallArguments?: boolean } = {},
): GeminiRequest {
  const contents = request.contents.map(toGeminiContent).filter((c) => (c.parts?.length ?? 0) > 0);
  if (contents.length === 0) {
    contents.push({ role: 'user', parts: [{ text: EMPTY_CONTENTS_TEXT }] });
  } else {
    if (contents[0]!.role === 'model') {
      contents.unshift({ role: 'user', parts: [{ text: LEADING_USER_TEXT }] });
    }
    if (contents[contents.length - 1]!.role === 'model') {
      contents.push({ role: 'user', parts: [{ text: CONTINUE_TEXT }] });
    }
  }
  const body: GeminiRequest = { contents };
  if (request.systemInstruction)
    body.systemInstruction = { parts: [{ text: request.systemInstruction }] };
  const config = request.config ?? {};
  const declarations = (config.tools ?? []).flatMap((group) => group.functionDeclarations);
  if (declarations.length > 0) {
    body.tools = [
      {
        functionDeclarations: declarations.map((declaration) => {
          const out: Record<string, unknown> = { name: declaration.name };
          if (declaration.description) out.description = declaration.description;
          if (declaration.parameters) out.parametersJsonSchema = declaration.parameters;
          if (declaration.response) out.responseJsonSchema = declaration.response;
          return out;
        }),
      },
    ];
  }
  const toolConfig = toToolConfig(config);
  if (toolConfig) body.toolConfig = toolConfig;
  if (options.streamFunctionCallArguments && body.tools) {
    body.toolConfig ??= { functionCallingConfig: {} };
    body.toolConfig.functionCallingConfig.streamFunctionCallArguments = true;
  }
  const generationConfig = toGenerationConfig(config);
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  if (options.vertex && config.labels && Object.keys(config.labels).length > 0) {
    body.labels = { ...config.labels };
  }
  Object.assign(body, config.providerOptions?.gemini);
  return body;
}

/** Converts one provider-neutral content into a Gemini content (client-made call ids dropped). */
export function toGeminiContent(content: Content): GeminiContent {
  const role = content.role === 'model' || content.role === 'assistant' ? 'model' : 'user';
  return {
    role,
    parts: content.parts.map(toGeminiPart).filter((p): p is GeminiPart => p !== undefined),
  };
}

function toGeminiPart(part: Part): GeminiPart | undefined {
  const out: GeminiPart = {};
  if (part.functionCall) {
    const { id, name, args } = part.functionCall;
    out.functionCall = { name, args: args ?? {} };
    if (id && !isClientFunctionCallId(id)) out.functionCall.id = id;
  } else if (part.functionResponse) {
    const { id, name, response } = part.functionResponse;
    out.functionResponse = { name, response };
    if (id && !isClientFunctionCallId(id)) out.functionResponse.id = id;
  } else if (part.inlineData) {
    out.inlineData = { mimeType: part.inlineData.mimeType, data: part.inlineData.data };
  } else if (part.fileData) {
    out.fileData = { fileUri: part.fileData.fileUri };
    if (part.fileData.mimeType) out.fileData.mimeType = part.fileData.mimeType;
  } else if (part.text !== undefined) {
    out.text = part.text;
    if (part.thought) out.thought = true;
  } else if (!part.thoughtSignature) {
    return undefined;
  }
  if (part.thoughtSignature) out.thoughtSignature = part.thoughtSignature;
  return out;
}

function toToolConfig(config: GenerateContentConfig): GeminiRequest['toolConfig'] {
  const choice = config.toolChoice;
  if (choice === undefined) return undefined;
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
}

function toGenerationConfig(config: GenerateContentConfig): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const copy = [
    'temperature',
    'topP',
    'topK',
    'maxOutputTokens',
    'stopSequences',
    'presencePenalty',
    'frequencyPenalty',
    'seed',
    'candidateCount',
    'responseMimeType',
  ] as const;
  for (const key of copy) if (config[key] !== undefined) out[key] = config[key];
  if (config.responseSchema) {
    out.responseJsonSchema = config.responseSchema;
    out.responseMimeType ??= 'application/json';
  }
  if (config.thinkingConfig) out.thinkingConfig = { ...config.thinkingConfig };
  return out;
}
