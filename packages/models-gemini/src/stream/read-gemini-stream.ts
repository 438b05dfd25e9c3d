import type { LlmResponse, Part } from '@adk/core';
import { StreamAggregator } from '@adk/core';
import { jsonSseEvents, ModelStreamError } from '@adk/model-http';

import { fromGeminiResponse } from '../convert/from-gemini-response';
import type { GeminiResponse } from '../convert/gemini-wire';
import { FunctionCallAssembler, isStreamedCallPiece } from './function-call-assembler';

/**
 * Turns a `streamGenerateContent?alt=sse` body into partial responses followed by one final
 * response:
 *
 * - text and thought deltas are yielded as partial responses;
 * - function calls whose arguments are streamed (`streamFunctionCallArguments`) are assembled
 *   across chunks; each piece is reported by a partial response without content whose
 *   `customMetadata.streamingFunctionCall` ({@link StreamingFunctionCall}) names the call and the
 *   argument values received, and the complete call appears in the final response only;
 * - an error object inside the stream, a malformed or unfinished streamed call, or a stream that
 *   ends before a finish reason throw {@link ModelStreamError}.
 */
export async function* readGeminiStream(
  body: AsyncIterable<Uint8Array>,
  model: string,
): AsyncGenerator<LlmResponse, void> {
  const context = { provider: 'gemini', model };
  const aggregator = new StreamAggregator();
  const assembler = new FunctionCallAssembler(context);
  let finished = false;
  for await (const { data } of jsonSseEvents(body, context)) {
    const chunk = data as GeminiResponse & { error?: { message?: string; status?: string } };
    if (chunk.error) {
      throw new ModelStreamError({
        ...context,
        kind: 'provider-error',
        message: chunk.error.message ?? 'error event',
        providerErrorType: chunk.error.status,
      });
    }
    const response = fromGeminiResponse(chunk);
    aggregator.add(response);
    if (response.finishReason || chunk.promptFeedback?.blockReason) finished = true;
    const deltas = (response.content?.parts ?? []).filter(isTextDelta);
    if (deltas.length > 0) yield { content: { role: 'model', parts: deltas }, partial: true };
    for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
      if (!part.functionCall || !isStreamedCallPiece(part.functionCall)) continue;
      const { progress, completed } = assembler.push(part);
      if (completed) aggregator.add({ content: { role: 'model', parts: [completed] } });
      if (progress) yield { partial: true, customMetadata: { streamingFunctionCall: progress } };
    }
  }
  assembler.finish();
  if (!finished) {
    throw new ModelStreamError({
      ...context,
      kind: 'incomplete',
      message: 'the stream ended before a chunk with a finish reason',
    });
  }
  yield aggregator.final();
}

function isTextDelta(part: Part): boolean {
  return part.text !== undefined && part.text !== '' && !part.functionCall;
}
