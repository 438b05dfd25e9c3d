import type { Content, GenerateContentConfig, LlmRequest, Part } from '@adk/core';
import { InvalidArgumentError } from '@adk/core';
import { FunctionCallIdPairing } from '@adk/model-http';

import type { AnthropicContentBlock, AnthropicMessage, AnthropicRequest } from './anthropic-wire';
import { toAnthropicServerTools } from './anthropic-server-tools';
import { anthropicThinkingBudget } from './anthropic-thinking';
import { REDACTED_THINKING_PREFIX } from './from-anthropic-response';

/**
 * Name of the tool used for structured output: a request with a JSON object `responseSchema`, no
 * tools and no extended thinking gets this single tool, forced, whose input is the answer.
 */
export const JSON_RESPONSE_TOOL = 'json_response';

/** True when the body asks for structured output through {@link JSON_RESPONSE_TOOL}. */
export function usesJsonResponseTool(body: AnthropicRequest): boolean {
  const choice = body.tool_choice;
  return choice?.type === 'tool' && choice.name === JSON_RESPONSE_TOOL;
}

/** Text sent when a request has no messages at all (the API rejects an empty `messages`). */
export const EMPTY_MESSAGES_TEXT = 'Handle the requests as specified in the System Instruction.';
/** Text of the user turn inserted when the conversation would start with an assistant turn. */
export const LEADING_USER_TEXT = 'Continue.';
/**
 * Text of the user turn appended when the conversation would end with an assistant turn: the API
 * would take that turn as a prefill and continue it instead of answering.
 */
export const TRAILING_USER_TEXT =
  'Continue from where you left off. If nothing is left to do, give your final answer.';

/**
 * Converts a provider-neutral request into a Messages API body.
 *
 * - the system instruction goes to the top-level `system`;
 * - function calls become `tool_use` blocks and function responses `tool_result` blocks (placed
 *   first in their user message, as the API requires);
 * - consecutive turns of the same role are merged (so parallel tool results form one user message)
 *   and the conversation always starts and ends with a user turn, so roles alternate and a
 *   trailing assistant turn is never taken as a prefill to continue;
 * - thoughts are sent back as `thinking` blocks only when they carry a signature (the API wants
 *   them unchanged, before the tool calls of their turn); `thinkingConfig` turns on extended
 *   thinking (see `anthropicThinkingBudget`);
 * - provider tools become server tools (`web_search`, `code_execution`; see
 *   `toAnthropicServerTools`); their results in earlier turns are not sent back (the answer text
 *   is);
 * - a JSON object `responseSchema` without tools or thinking becomes one forced tool
 *   ({@link JSON_RESPONSE_TOOL}) whose input is the answer (the Messages API has no JSON mode);
 * - with `promptCaching`, cache breakpoints (`cache_control`) go after the static part of the
 *   system prompt (`staticInstruction`; the rest of the prompt follows in a second block), on the
 *   last tool, on the last block before the agent's instruction when it travels in the
 *   conversation (`instructionContentIndex`, an agent with a `staticInstruction`) and on the last
 *   block of the conversation, so each turn of an agent loop reads the previous turns from the
 *   cache and a state change in the instruction never invalidates the history before it;
 * - `providerOptions.anthropic` is merged into the body (e.g. `metadata`, `service_tier`).
 */
export function toAnthropicRequest(
  request: LlmRequest,
  options: { model: string; maxTokens: number; promptCaching?: boolean },
): AnthropicRequest {
  const config = request.config ?? {};
  const body: AnthropicRequest = {
    model: options.model,
    max_tokens: config.maxOutputTokens ?? options.maxTokens,
    messages: [],
  };
  const { messages, beforeInstruction } = toMessages(
    request.contents,
    request.instructionContentIndex,
  );
  body.messages = messages;
  if (request.systemInstruction) body.system = request.systemInstruction;
  const declarations = (config.tools ?? []).flatMap((group) => group.functionDeclarations);
  if (declarations.length > 0) {
    body.tools = declarations.map((declaration) => {
      const tool: {
        name: string;
        description?: string;
        input_schema: Record<string, unknown>;
      } = {
        name: declaration.name,
        input_schema: declaration.parameters ?? { type: 'object', properties: {} },
      };
      if (declaration.description) tool.description = declaration.description;
      return tool;
    });
  }
  const serverTools = toAnthropicServerTools(config.providerTools).tools;
  if (serverTools.length > 0) body.tools = [...(body.tools ?? []), ...serverTools];
  const choice = toToolChoice(config);
  if (choice) body.tool_choice = choice;
  if (config.temperature !== undefined) body.temperature = config.temperature;
  if (config.topP !== undefined) body.top_p = config.topP;
  if (config.topK !== undefined) body.top_k = config.topK;
  if (config.stopSequences?.length) body.stop_sequences = config.stopSequences;
  const budget = anthropicThinkingBudget(config.thinkingConfig);
  if (budget !== undefined) {
    body.thinking = { type: 'enabled', budget_tokens: budget };
    if (body.max_tokens <= body.thinking.budget_tokens)
      body.max_tokens = body.thinking.budget_tokens + options.maxTokens;
  }
  addJsonResponseTool(body, config);
  if (options.promptCaching) {
    addCacheBreakpoints(body, request.staticInstruction, beforeInstruction);
  }
  Object.assign(body, config.providerOptions?.anthropic);
  return body;
}

/**
 * The messages, and the last block before the content at `instructionIndex` (the agent's
 * instruction travelling in the conversation), where a cache breakpoint keeps the history cached
 * while the instruction changes.
 */
function toMessages(
  contents: Content[],
  instructionIndex: number | undefined,
): { messages: AnthropicMessage[]; beforeInstruction: AnthropicContentBlock | undefined } {
  const messages: AnthropicMessage[] = [];
  const ids = new FunctionCallIdPairing();
  let beforeInstruction: AnthropicContentBlock | undefined;
  for (let index = 0; index < contents.length; index++) {
    const content = contents[index]!;
    if (index === instructionIndex) {
      const last = messages[messages.length - 1];
      beforeInstruction = last?.content[last.content.length - 1];
    }
    const role = content.role === 'model' || content.role === 'assistant' ? 'assistant' : 'user';
    const blocks = content.parts
      .map((part) => toBlock(part, ids))
      .filter((b): b is AnthropicContentBlock => b !== undefined);
    if (blocks.length === 0) continue;
    const last = messages[messages.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  }
  for (const message of messages) {
    if (message.role !== 'user') continue;
    // tool_result blocks must come before any other block of a user message
    const results = message.content.filter((b) => b.type === 'tool_result');
    if (results.length > 0)
      message.content = [...results, ...message.content.filter((b) => b.type !== 'tool_result')];
  }
  if (messages.length === 0)
    messages.push({ role: 'user', content: [{ type: 'text', text: EMPTY_MESSAGES_TEXT }] });
  else if (messages[0]!.role === 'assistant')
    messages.unshift({ role: 'user', content: [{ type: 'text', text: LEADING_USER_TEXT }] });
  if (messages[messages.length - 1]!.role === 'assistant')
    messages.push({ role: 'user', content: [{ type: 'text', text: TRAILING_USER_TEXT }] });
  return { messages, beforeInstruction };
}

function toBlock(part: Part, ids: FunctionCallIdPairing): AnthropicContentBlock | undefined {
  if (part.functionCall) {
    return {
      type: 'tool_use',
      id: ids.callId(part.functionCall),
      name: part.functionCall.name,
      input: part.functionCall.args ?? {},
    };
  }
  if (part.functionResponse) {
    const { response } = part.functionResponse;
    const block: AnthropicContentBlock = {
      type: 'tool_result',
      tool_use_id: ids.responseId(part.functionResponse),
      content: JSON.stringify(response),
    };
    if (isErrorResponse(response)) block.is_error = true;
    return block;
  }
  if (part.inlineData) {
    const { mimeType, data } = part.inlineData;
    if (mimeType.startsWith('image/'))
      return { type: 'image', source: { type: 'base64', media_type: mimeType, data } };
    if (mimeType === 'application/pdf')
      return { type: 'document', source: { type: 'base64', media_type: mimeType, data } };
    if (mimeType.startsWith('text/')) {
      return {
        type: 'document',
        source: {
          type: 'text',
          media_type: 'text/plain',
          data: Buffer.from(data, 'base64').toString('utf8'),
        },
      };
    }
    throw new InvalidArgumentError({
      message: `Anthropic models accept images, PDF and text documents; got inline data of type "${mimeType}".`,
      argument: 'contents',
    });
  }
  if (part.fileData) {
    const url = part.fileData.fileUri;
    if (part.fileData.mimeType?.startsWith('image/'))
      return { type: 'image', source: { type: 'url', url } };
    return { type: 'document', source: { type: 'url', url } };
  }
  if (part.text !== undefined) {
    if (part.thought) {
      const signature = part.thoughtSignature;
      if (!signature) return undefined;
      if (signature.startsWith(REDACTED_THINKING_PREFIX)) {
        return {
          type: 'redacted_thinking',
          data: signature.slice(REDACTED_THINKING_PREFIX.length),
        };
      }
      return { type: 'thinking', thinking: part.text, signature };
    }
    return part.text === '' ? undefined : { type: 'text', text: part.text };
  }
  return undefined;
}

function isErrorResponse(response: Record<string, unknown>): boolean {
  const keys = Object.keys(response);
  return keys.length === 1 && keys[0] === 'error';
}

function toToolChoice(config: GenerateContentConfig): AnthropicRequest['tool_choice'] {
  const choice = config.toolChoice;
  if (choice === undefined) return undefined;
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any' };
  return { type: 'tool', name: choice.name };
}

const EPHEMERAL = { type: 'ephemeral' } as const;

function addCacheBreakpoints(
  body: AnthropicRequest,
  staticInstruction: string | undefined,
  beforeInstruction: AnthropicContentBlock | undefined,
): void {
  if (typeof body.system === 'string') body.system = systemBlocks(body.system, staticInstruction);
  const lastTool = body.tools?.[body.tools.length - 1];
  if (lastTool) lastTool.cache_control = EPHEMERAL;
  // At most four breakpoints: system, tools, the history before a moved instruction, the end.
  if (beforeInstruction) markBlock(beforeInstruction);
  const lastMessage = body.messages[body.messages.length - 1];
  const lastBlock = lastMessage?.content[lastMessage.content.length - 1];
  if (lastBlock) markBlock(lastBlock);
}

function markBlock(block: AnthropicContentBlock): void {
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return;
  (block as { cache_control?: unknown }).cache_control = EPHEMERAL;
}

/**
 * The system prompt as text blocks with a cache breakpoint after its static part (the request's
 * `staticInstruction`, when the prompt still starts with it): the part that depends on the session
 * goes in a second block, so a state change never invalidates the cached prefix.
 */
function systemBlocks(
  system: string,
  staticInstruction: string | undefined,
): Exclude<AnthropicRequest['system'], string | undefined> {
  const rest =
    staticInstruction && system.startsWith(staticInstruction)
      ? system.slice(staticInstruction.length).trimStart()
      : '';
  if (rest === '' || staticInstruction === undefined) {
    return [{ type: 'text', text: system, cache_control: EPHEMERAL }];
  }
  return [
    { type: 'text', text: staticInstruction, cache_control: EPHEMERAL },
    { type: 'text', text: rest },
  ];
}

function addJsonResponseTool(body: AnthropicRequest, config: GenerateContentConfig): void {
  const schema = config.responseSchema;
  if (!schema || schema.type !== 'object' || body.tools?.length || body.thinking) return;
  body.tools = [
    {
      name: JSON_RESPONSE_TOOL,
      description: 'Give the final answer as JSON matching this schema. Call it exactly once.',
      input_schema: schema,
    },
  ];
  body.tool_choice = { type: 'tool', name: JSON_RESPONSE_TOOL };
}
