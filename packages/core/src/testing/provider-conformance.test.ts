import { AdkError } from '../errors';
import type { LlmRequest, LlmResponse, Model } from '../models';
import { modelProviderConformance } from './provider-conformance';
import type { ConformanceReply, ConformanceRequestView } from './provider-conformance-types';

class ScriptedApiError extends AdkError {
  readonly status: number;
  readonly retryable: boolean;
  constructor(status: number, message: string) {
    super('ScriptedApiError', 'SCRIPTED_API_ERROR', { message: `HTTP ${status}: ${message}` });
    this.status = status;
    this.retryable = status >= 500;
  }

  static isScripted(error: unknown): error is ScriptedApiError {
    return error instanceof ScriptedApiError;
  }
}

function waitForAbort(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal?.aborted) reject(signal.reason);
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * A provider that needs no HTTP at all: it proves the suite is provider-neutral, as a third-party
 * provider (say, a wrapper around another SDK) would use it.
 */
function scriptedModel(script: ConformanceReply[], received: LlmRequest[], retries: number): Model {
  let callCount = 0;
  async function* attempt(
    request: LlmRequest,
    stream: boolean,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<LlmResponse, void> {
    signal?.throwIfAborted();
    received.push(structuredClone(request));
    const reply = script[callCount++];
    if (!reply) throw new ScriptedApiError(500, 'script exhausted');
    const usageMetadata = { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 };
    switch (reply.type) {
      case 'error':
        throw new ScriptedApiError(reply.status, reply.message);
      case 'cut':
        if (stream)
          yield { content: { role: 'model', parts: [{ text: reply.text }] }, partial: true };
        throw new ScriptedApiError(599, 'connection dropped');
      case 'malformedToolCall':
        yield {
          finishReason: 'MALFORMED_FUNCTION_CALL',
          errorCode: 'MALFORMED_FUNCTION_CALL',
          errorMessage: `arguments of ${reply.name} are not JSON`,
          usageMetadata,
        };
        return;
      case 'hang':
        if (stream)
          yield { content: { role: 'model', parts: [{ text: reply.text }] }, partial: true };
        await waitForAbort(signal);
        return;
      case 'text': {
        if (stream) {
          for (const chunk of reply.chunks) {
            yield { content: { role: 'model', parts: [{ text: chunk }] }, partial: true };
          }
        }
        const finishReason =
          reply.finishReason === 'length'
            ? 'MAX_TOKENS'
            : reply.finishReason === 'safety'
              ? 'SAFETY'
              : 'STOP';
        yield {
          content: { role: 'model', parts: [{ text: reply.text }] },
          finishReason,
          ...(finishReason === 'SAFETY' ? { errorCode: 'SAFETY' } : {}),
          usageMetadata,
        };
        return;
      }
      case 'toolCalls':
        yield {
          content: {
            role: 'model',
            parts: reply.calls.map((call, index) => ({
              functionCall: { id: `call_${callCount}_${index}`, ...call },
            })),
          },
          finishReason: 'STOP',
          usageMetadata,
        };
    }
  }
  return {
    name: 'scripted',
    async *generate(request, { stream, signal }): AsyncGenerator<LlmResponse, void> {
      // retries as an HTTP provider makes them: only before anything was yielded
      for (let attempted = 0; ; attempted++) {
        let yielded = false;
        try {
          for await (const response of attempt(request, stream, signal)) {
            yielded = true;
            yield response;
          }
          return;
        } catch (error) {
          const retryable = ScriptedApiError.isScripted(error) && error.retryable;
          if (yielded || !retryable || attempted >= retries) throw error;
        }
      }
    },
  };
}

function view(request: LlmRequest): ConformanceRequestView {
  const result: ConformanceRequestView = {
    systemInstruction: request.systemInstruction,
    userTexts: [],
    toolCalls: [],
    toolResults: [],
    toolNames: (request.config.tools ?? []).flatMap((group) =>
      group.functionDeclarations.map((d) => d.name),
    ),
  };
  for (const content of request.contents) {
    for (const part of content.parts) {
      if (content.role === 'user' && part.text !== undefined) result.userTexts.push(part.text);
      if (part.functionCall) {
        const { id, name, args } = part.functionCall;
        result.toolCalls.push({ id, name, args: args ?? {} });
      }
      if (part.functionResponse) {
        const { id, name, response } = part.functionResponse;
        result.toolResults.push({ id, name, response });
      }
    }
  }
  return result;
}

modelProviderConformance('in-memory scripted model', {
  createBackend(script, { retries }) {
    const received: LlmRequest[] = [];
    return { model: scriptedModel(script, received, retries), requests: () => received.map(view) };
  },
});
