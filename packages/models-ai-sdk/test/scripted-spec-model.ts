import type {
  ConformanceBackend,
  ConformanceReply,
  ConformanceRequestView,
} from '@adk/core/testing';
import { APICallError } from '@ai-sdk/provider';

import { aiSdkModel, type AiSdkLanguageModel } from '../src';

type Options = Record<string, unknown> & {
  prompt: Array<{ role: string; content: unknown }>;
  tools?: Array<{ name: string }>;
  abortSignal?: AbortSignal;
};

const usage = {
  inputTokens: { total: 12, noCache: 12, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 7, text: 7, reasoning: 0 },
};

/**
 * A backend for core's provider conformance suite that is an AI SDK language model itself: each
 * scripted reply rendered as the specification's `doGenerate` result or `doStream` parts (v3 and
 * v4 share these shapes), errors as the AI SDK's `APICallError`. `wrap` builds the model object:
 * the AI SDK's own `MockLanguageModelV3`, or a plain object declaring specification v4.
 */
export function scriptedSpecBackend(
  script: ConformanceReply[],
  retries: number,
  wrap: (calls: {
    doGenerate: (options: Options) => Promise<unknown>;
    doStream: (options: Options) => Promise<unknown>;
  }) => AiSdkLanguageModel,
): ConformanceBackend {
  const seen: Options[] = [];
  let index = 0;
  const next = (options: Options): ConformanceReply => {
    seen.push(options);
    const reply = script[index++];
    if (!reply) throw new Error(`scripted model: no reply left for call ${index}`);
    if (reply.type === 'error') {
      throw new APICallError({
        message: reply.message,
        url: 'http://127.0.0.1/scripted',
        requestBodyValues: {},
        statusCode: reply.status,
        responseBody: JSON.stringify({ error: { message: `scripted failure ${reply.status}` } }),
        isRetryable: reply.status === 429 || reply.status >= 500,
      });
    }
    return reply;
  };
  const model = wrap({
    async doGenerate(options) {
      const reply = next(options);
      if (reply.type === 'hang' || reply.type === 'cut') {
        if (reply.type === 'cut')
          throw new APICallError({
            message: 'socket hang up',
            url: 'http://127.0.0.1/scripted',
            requestBodyValues: {},
            isRetryable: true,
          });
        await new Promise((_, reject) =>
          options.abortSignal?.addEventListener(
            'abort',
            () => reject(options.abortSignal!.reason),
            { once: true },
          ),
        );
      }
      return { ...generateResult(reply), warnings: [] };
    },
    async doStream(options) {
      const reply = next(options);
      return { stream: streamOf(reply, options.abortSignal) };
    },
  });
  const wrapped = aiSdkModel(model, {
    maxRetries: retries,
    retry: { initialDelayMs: 1, maxDelayMs: 5 },
  });
  return { model: wrapped, requests: () => seen.map(describe) };
}

function generateResult(reply: ConformanceReply): Record<string, unknown> {
  switch (reply.type) {
    case 'text':
      return {
        content: [{ type: 'text', text: reply.text }],
        finishReason: finish(
          reply.finishReason === 'length'
            ? 'length'
            : reply.finishReason === 'safety'
              ? 'content-filter'
              : 'stop',
        ),
        usage,
      };
    case 'toolCalls':
      return {
        content: reply.calls.map((call, i) => ({
          type: 'tool-call',
          toolCallId: `call_${i}`,
          toolName: call.name,
          input: JSON.stringify(call.args),
        })),
        finishReason: finish('tool-calls'),
        usage,
      };
    case 'malformedToolCall':
      return {
        content: [
          {
            type: 'tool-call',
            toolCallId: 'call_0',
            toolName: reply.name,
            input: reply.rawArguments,
          },
        ],
        finishReason: finish('tool-calls'),
        usage,
      };
    default:
      return { content: [], finishReason: finish('other'), usage };
  }
}

function streamOf(
  reply: ConformanceReply,
  signal: AbortSignal | undefined,
): ReadableStream<unknown> {
  const parts: unknown[] = [{ type: 'stream-start', warnings: [] }];
  if (reply.type === 'text') {
    parts.push({ type: 'text-start', id: 't' });
    for (const chunk of reply.chunks) parts.push({ type: 'text-delta', id: 't', delta: chunk });
    parts.push({ type: 'text-end', id: 't' });
  } else if (reply.type === 'hang' || reply.type === 'cut') {
    parts.push({ type: 'text-delta', id: 't', delta: reply.text });
  } else {
    const result = generateResult(reply);
    parts.push(...(result.content as unknown[]));
  }
  let index = 0;
  return new ReadableStream({
    async pull(controller) {
      if (index < parts.length) {
        controller.enqueue(parts[index++]);
        return;
      }
      if (reply.type === 'hang') {
        await new Promise<void>((resolve) =>
          signal?.addEventListener('abort', () => resolve(), { once: true }),
        );
        controller.error(signal?.reason);
        return;
      }
      if (reply.type === 'cut') {
        controller.error(new TypeError('terminated'));
        return;
      }
      const result = generateResult(reply);
      controller.enqueue({ type: 'finish', finishReason: result.finishReason, usage });
      controller.close();
    },
  });
}

function finish(unified: string): { unified: string; raw: string } {
  return { unified, raw: unified };
}

function describe(options: Options): ConformanceRequestView {
  const view: ConformanceRequestView = {
    systemInstruction: undefined,
    userTexts: [],
    toolCalls: [],
    toolResults: [],
    toolNames: (options.tools ?? []).map((tool) => tool.name),
  };
  for (const message of options.prompt) {
    if (message.role === 'system') view.systemInstruction = message.content as string;
    for (const part of Array.isArray(message.content)
      ? (message.content as Array<Record<string, unknown>>)
      : []) {
      if (message.role === 'user' && part.type === 'text') view.userTexts.push(part.text as string);
      if (part.type === 'tool-call')
        view.toolCalls.push({
          id: part.toolCallId as string,
          name: part.toolName as string,
          args: part.input as Record<string, unknown>,
        });
      if (part.type === 'tool-result')
        view.toolResults.push({
          id: part.toolCallId as string,
          name: part.toolName as string,
          response: (part.output as { value: unknown }).value,
        });
    }
  }
  return view;
}
