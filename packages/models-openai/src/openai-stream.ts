import type { FunctionCall, LlmResponse } from '@adk/core';
import { StreamAggregator } from '@adk/core';
import { jsonSseEvents, ModelStreamError } from '@adk/model-http';

import {
  applyFinish,
  markMalformedCall,
  parseToolCall,
  toUsage,
} from './convert/from-openai-response';
import type { OpenAIChunk, OpenAIUsage } from './convert/openai-wire';
import { applyAnnotations, type OpenAIAnnotation } from './convert/openai-web-search';
import { PendingCalls } from './pending-tool-calls';

/**
 * Turns a Chat Completions chunk stream into partial text/thought deltas followed by one final
 * aggregated response. Tool call fragments are assembled by {@link PendingCalls} (by `index`, ids
 * and names in the first fragment only, arguments split anywhere, fragments of several calls
 * interleaved; every call is kept). Usage is taken from whichever chunk carries it, usually a last
 * chunk with empty `choices` (`stream_options.include_usage`).
 */
export async function* readOpenAIStream(
  body: AsyncIterable<Uint8Array>,
  model: string,
  provider: string,
): AsyncGenerator<LlmResponse, void> {
  const context = { provider, model };
  const aggregator = new StreamAggregator();
  const calls = new PendingCalls();
  let finishReason: string | null | undefined;
  let usage: OpenAIUsage | undefined;
  let modelVersion: string | undefined;
  let refusal = '';
  const annotations: OpenAIAnnotation[] = [];
  for await (const { data } of jsonSseEvents(body, context)) {
    const chunk = data as OpenAIChunk;
    if (chunk.error) {
      throw new ModelStreamError({
        ...context,
        kind: 'provider-error',
        message: chunk.error.message ?? 'error chunk',
        providerErrorType: chunk.error.type ?? chunk.error.code ?? undefined,
      });
    }
    if (chunk.model) modelVersion = chunk.model;
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta ?? {};
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (reasoning) yield emit(aggregator, reasoning, true);
    if (delta.content) yield emit(aggregator, delta.content, false);
    if (delta.refusal) refusal += delta.refusal;
    if (delta.annotations) annotations.push(...delta.annotations);
    for (const fragment of delta.tool_calls ?? []) calls.add(fragment);
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  if (!finishReason) {
    throw new ModelStreamError({
      ...context,
      kind: 'incomplete',
      message: 'the stream ended before a finish_reason',
    });
  }
  // One call with arguments that are not a JSON object spoils the batch: none of its calls is
  // returned (running the others would leave the model's turn half done).
  const parsed: LlmResponse = {};
  const functionCalls: FunctionCall[] = [];
  let spoiled = false;
  for (const call of calls.inOrder()) {
    const functionCall = parseToolCall(call);
    if (functionCall) functionCalls.push(functionCall);
    else if (!spoiled) {
      spoiled = true;
      markMalformedCall(parsed, call.name, call.arguments, finishReason);
    }
  }
  if (!spoiled) {
    for (const functionCall of functionCalls)
      aggregator.add({ content: { role: 'model', parts: [{ functionCall }] } });
  }
  if (refusal) aggregator.add({ content: { role: 'model', parts: [{ text: refusal }] } });
  const final = aggregator.final();
  applyFinish(final, finishReason);
  if (refusal)
    Object.assign(final, { finishReason: 'SAFETY', errorCode: 'SAFETY', errorMessage: refusal });
  Object.assign(final, parsed);
  if (usage) final.usageMetadata = toUsage(usage);
  if (modelVersion) final.modelVersion = modelVersion;
  applyAnnotations(final, annotations);
  yield final;
}

function emit(aggregator: StreamAggregator, text: string, thought: boolean): LlmResponse {
  const part = thought ? { text, thought: true } : { text };
  aggregator.add({ content: { role: 'model', parts: [part] } });
  return { content: { role: 'model', parts: [{ ...part }] }, partial: true };
}
