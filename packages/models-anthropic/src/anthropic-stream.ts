import type { LlmResponse, UsageMetadata } from '@adk/core';
import { StreamAggregator } from '@adk/core';
import { jsonSseEvents, ModelStreamError } from '@adk/model-http';

import { applyFinish, toUsage } from './convert/from-anthropic-response';
import type { AnthropicUsage } from './convert/anthropic-wire';

interface BlockState {
  type: string;
  id?: string;
  name?: string;
  json: string;
  signature?: string;
  /** The structured-output tool: its input is streamed as answer text. */
  jsonAnswer: boolean;
}

type StreamEvent =
  | { type: 'message_start'; message: { model?: string; usage?: AnthropicUsage } }
  | {
      type: 'content_block_start';
      index: number;
      content_block: { type: string; id?: string; name?: string; text?: string; thinking?: string };
    }
  | {
      type: 'content_block_delta';
      index: number;
      delta:
        | { type: 'text_delta'; text: string }
        | { type: 'thinking_delta'; thinking: string }
        | { type: 'signature_delta'; signature: string }
        | { type: 'input_json_delta'; partial_json: string }
        | { type: 'citations_delta' };
    }
  | { type: 'content_block_stop'; index: number }
  | { type: 'message_delta'; delta: { stop_reason?: string | null }; usage?: AnthropicUsage }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | { type: 'error'; error: { type?: string; message?: string } };

const RETRYABLE_STREAM_ERRORS = new Set(['overloaded_error', 'api_error', 'rate_limit_error']);

/**
 * Turns a Messages API event stream into partial text/thought deltas followed by one final
 * aggregated response. Tool inputs arrive as `input_json_delta` fragments split anywhere; they are
 * parsed when their block stops, so partial responses never hold tool calls. The input of the
 * structured-output tool (`jsonResponseTool`) is streamed as answer text instead.
 */
export async function* readAnthropicStream(
  body: AsyncIterable<Uint8Array>,
  model: string,
  options: { jsonResponseTool?: string } = {},
): AsyncGenerator<LlmResponse, void> {
  const context = { provider: 'anthropic', model };
  const aggregator = new StreamAggregator();
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
        const block = event.content_block;
        blocks.set(event.index, {
          type: block.type,
          id: block.id,
          name: block.name,
          json: '',
          jsonAnswer: block.type === 'tool_use' && block.name === options.jsonResponseTool,
        });
        const initial =
          block.type === 'text'
            ? block.text
            : block.type === 'thinking'
              ? block.thinking
              : undefined;
        if (initial) yield emit(aggregator, initial, block.type === 'thinking');
        break;
      }
      case 'content_block_delta': {
        const block = blocks.get(event.index);
        const delta = event.delta;
        if (delta.type === 'text_delta' && delta.text) yield emit(aggregator, delta.text, false);
        else if (delta.type === 'thinking_delta' && delta.thinking)
          yield emit(aggregator, delta.thinking, true);
        else if (delta.type === 'signature_delta' && block) block.signature = delta.signature;
        else if (delta.type === 'input_json_delta' && block?.jsonAnswer) {
          // structured output: the tool input is the answer, streamed as text
          if (delta.partial_json) yield emit(aggregator, delta.partial_json, false);
        } else if (delta.type === 'input_json_delta' && block) block.json += delta.partial_json;
        break;
      }
      case 'content_block_stop': {
        const block = blocks.get(event.index);
        if (block?.type === 'tool_use' && !block.jsonAnswer) {
          aggregator.add({
            content: {
              role: 'model',
              parts: [
                {
                  functionCall: {
                    id: block.id,
                    name: block.name ?? '',
                    args: parseInput(block, context),
                  },
                },
              ],
            },
          });
        } else if (block?.type === 'thinking' && block.signature) {
          aggregator.add({
            content: {
              role: 'model',
              parts: [{ text: '', thought: true, thoughtSignature: block.signature }],
            },
          });
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
  const final = aggregator.final();
  final.usageMetadata = toUsage(usage) satisfies UsageMetadata;
  if (modelVersion) final.modelVersion = modelVersion;
  applyFinish(final, stopReason);
  yield final;
}

function emit(aggregator: StreamAggregator, text: string, thought: boolean): LlmResponse {
  const part = thought ? { text, thought: true } : { text };
  aggregator.add({ content: { role: 'model', parts: [part] } });
  return { content: { role: 'model', parts: [{ ...part }] }, partial: true };
}

function parseInput(
  block: BlockState,
  context: { provider: string; model: string },
): Record<string, unknown> {
  if (block.json.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(block.json);
    if (value && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch (cause) {
    throw new ModelStreamError({
      ...context,
      kind: 'malformed',
      message: `the input of tool call "${block.name}" is not valid JSON`,
      chunk: block.json,
      cause,
    });
  }
  throw new ModelStreamError({
    ...context,
    kind: 'malformed',
    message: `the input of tool call "${block.name}" is not a JSON object`,
    chunk: block.json,
  });
}

function definedOnly(usage: AnthropicUsage): AnthropicUsage {
  return Object.fromEntries(
    Object.entries(usage).filter(([, value]) => value !== undefined && value !== null),
  );
}
