import type { LlmResponse, Part } from '@adk/core';
import { jsonSseEvents, ModelStreamError } from '@adk/model-http';

import {
  settleParts,
  REDACTED_THINKING_PREFIX,
  REDACTED_THINKING_TEXT,
  toUsage,
} from './convert/from-anthropic-response';
import type { AnthropicUsage } from './convert/anthropic-wire';
import { ServerToolReader, type WireBlock } from './convert/server-tool-blocks';

/** A content block being received; its final part is built when the stream ends. */
interface BlockState {
  type: string;
  id?: string;
  name?: string;
  /** Text, thinking text, or (tool_use) the JSON input so far. */
  text: string;
  signature?: string;
  /** redacted_thinking payload. */
  data?: string;
  /** The structured-output tool: its input is streamed as answer text. */
  jsonAnswer: boolean;
  /** A server tool result block's `content` (sent whole in `content_block_start`). */
  content?: unknown;
  /** Citations of a text block (`citations_delta`). */
  citations?: unknown[];
}

type StreamEvent =
  | { type: 'message_start'; message: { model?: string; usage?: AnthropicUsage } }
  | {
      type: 'content_block_start';
      index: number;
      content_block: {
        type: string;
        id?: string;
        name?: string;
        text?: string;
        thinking?: string;
        data?: string;
        content?: unknown;
        citations?: unknown[] | null;
      };
    }
  | {
      type: 'content_block_delta';
      index: number;
      delta:
        | { type: 'text_delta'; text: string }
        | { type: 'thinking_delta'; thinking: string }
        | { type: 'signature_delta'; signature: string }
        | { type: 'input_json_delta'; partial_json: string }
        | { type: 'citations_delta'; citation: unknown };
    }
  | { type: 'content_block_stop'; index: number }
  | { type: 'message_delta'; delta: { stop_reason?: string | null }; usage?: AnthropicUsage }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | { type: 'error'; error: { type?: string; message?: string } };

const RETRYABLE_STREAM_ERRORS = new Set(['overloaded_error', 'api_error', 'rate_limit_error']);

type Context = { provider: string; model: string };

/**
 * Turns a Messages API event stream into partial text/thought deltas followed by one final
 * response whose parts are the message's content blocks, in order (each thinking block keeps its
 * own signature). Tool inputs arrive as `input_json_delta` fragments split anywhere; they are
 * parsed when the stream ends, so partial responses never hold tool calls. The input of the
 * structured-output tool (`jsonResponseTool`) is streamed as answer text instead. Server tool
 * blocks and text citations are read when the stream ends (see `ServerToolReader`).
 */
export async function* readAnthropicStream(
  body: AsyncIterable<Uint8Array>,
  model: string,
  options: { jsonResponseTool?: string } = {},
): AsyncGenerator<LlmResponse, void> {
  const context: Context = { provider: 'anthropic', model };
  const blocks = new Map<number, BlockState>();
  let usage: AnthropicUsage = {};
  let stopReason: string | null | undefined;
  let modelVersion: string | undefined;
  let stopped = false;
  for await (const { data } of jsonSseEvents(body, context)) {
    const event = data as StreamEvent;
    switch (event.type) {
      case 'message_start':
        usage = { ...event.message.usage };
        modelVersion = event.message.model;
        break;
      case 'content_block_start': {
        const start = event.content_block;
        const initial =
          (start.type === 'text' ? start.text : start.type === 'thinking' ? start.thinking : '') ??
          '';
        blocks.set(event.index, {
          type: start.type,
          id: start.id,
          name: start.name,
          text: initial,
          data: start.data,
          content: start.content,
          citations: start.citations ? [...start.citations] : undefined,
          jsonAnswer: start.type === 'tool_use' && start.name === options.jsonResponseTool,
        });
        if (initial) yield delta(initial, start.type === 'thinking');
        break;
      }
      case 'content_block_delta': {
        const block = blocks.get(event.index);
        const change = event.delta;
        if (!block) break;
        if (change.type === 'text_delta' || change.type === 'thinking_delta') {
          const text = change.type === 'text_delta' ? change.text : change.thinking;
          block.text += text;
          if (text) yield delta(text, change.type === 'thinking_delta');
        } else if (change.type === 'signature_delta') {
          block.signature = change.signature;
        } else if (change.type === 'citations_delta') {
          (block.citations ??= []).push(change.citation);
        } else if (change.type === 'input_json_delta') {
          block.text += change.partial_json;
          if (block.jsonAnswer && change.partial_json) yield delta(change.partial_json, false);
        }
        break;
      }
      case 'message_delta':
        if (event.delta.stop_reason !== undefined) stopReason = event.delta.stop_reason;
        if (event.usage) usage = { ...usage, ...definedOnly(event.usage) };
        break;
      case 'message_stop':
        stopped = true;
        break;
      case 'error':
        throw new ModelStreamError({
          ...context,
          kind: 'provider-error',
          message: event.error?.message ?? 'error event',
          providerErrorType: event.error?.type,
          retryable: RETRYABLE_STREAM_ERRORS.has(event.error?.type ?? ''),
        });
      default:
        break;
    }
  }
  if (!stopped) {
    throw new ModelStreamError({
      ...context,
      kind: 'incomplete',
      message: 'the stream ended before message_stop',
    });
  }
  const reader = new ServerToolReader();
  const parts = [...blocks.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, block]) => finalPart(block, reader))
    .filter((part): part is Part => part !== undefined);
  const final: LlmResponse = { partial: false, turnComplete: true, usageMetadata: toUsage(usage) };
  if (modelVersion) final.modelVersion = modelVersion;
  reader.apply(final);
  settleParts(final, parts, stopReason);
  yield final;
}

function delta(text: string, thought: boolean): LlmResponse {
  const part: Part = thought ? { text, thought: true } : { text };
  return { content: { role: 'model', parts: [part] }, partial: true };
}

/** The final part of a block; server tool blocks and citations go through `reader`. */
function finalPart(block: BlockState, reader: ServerToolReader): Part | undefined {
  if (ServerToolReader.handles(block.type)) {
    const wire: WireBlock = { type: block.type, name: block.name, content: block.content };
    if (block.type === 'server_tool_use') wire.input = parseInput(block);
    return reader.read(wire);
  }
  if (block.type === 'text') reader.text(block.text, block.citations as never);
  return toFinalPart(block);
}

function toFinalPart(block: BlockState): Part | undefined {
  switch (block.type) {
    case 'text':
      return block.text ? { text: block.text } : undefined;
    case 'thinking': {
      const part: Part = { text: block.text, thought: true };
      if (block.signature) part.thoughtSignature = block.signature;
      return part;
    }
    case 'redacted_thinking':
      return block.data
        ? {
            text: REDACTED_THINKING_TEXT,
            thought: true,
            thoughtSignature: `${REDACTED_THINKING_PREFIX}${block.data}`,
          }
        : undefined;
    case 'tool_use':
      if (block.jsonAnswer) return { text: block.text };
      return {
        functionCall: { id: block.id, name: block.name ?? '', args: parseInput(block) },
      };
    default:
      return undefined;
  }
}

/**
 * The assembled input: its JSON value, or the text itself when it is not JSON. Either may be no
 * object; `settleParts` then hands out no call, as for an answer that was not streamed.
 */
function parseInput(block: BlockState): Record<string, unknown> {
  if (block.text.trim() === '') return {};
  try {
    return JSON.parse(block.text) as Record<string, unknown>;
  } catch {
    return block.text as unknown as Record<string, unknown>;
  }
}

function definedOnly(usage: AnthropicUsage): AnthropicUsage {
  return Object.fromEntries(
    Object.entries(usage).filter(([, value]) => value !== undefined && value !== null),
  );
}
