import type { GenerateOptions, LlmRequest, LlmResponse, Model, Part } from '@adk/core';
import { StreamAggregator } from '@adk/core';
import { jsonSseEvents, ModelStreamError, type HttpClient } from '@adk/model-http';

import { fromGeminiResponse } from './convert/from-gemini-response';
import type { GeminiResponse } from './convert/gemini-wire';
import { toGeminiRequest } from './convert/to-gemini-request';
import type { GeminiEndpoint } from './gemini-endpoint';

/**
 * A Gemini model over the Gemini API or Vertex AI: `generateContent`, or
 * `streamGenerateContent?alt=sse` when streaming. Create it with `createGemini()(name)` rather than directly.
 */
export class GeminiModel implements Model {
  readonly name: string;
  /** The model id sent to the API (`gemini/` and `models/` prefixes removed). */
  readonly apiModelId: string;
  private readonly http: HttpClient;
  private readonly endpoint: () => Promise<GeminiEndpoint>;

  constructor(
    name: string,
    options: { http: HttpClient; endpoint: () => Promise<GeminiEndpoint> },
  ) {
    this.name = name;
    this.apiModelId = name.replace(/^gemini\//, '').replace(/^models\//, '');
    this.http = options.http;
    this.endpoint = options.endpoint;
  }

  async *generate(
    request: LlmRequest,
    options: GenerateOptions,
  ): AsyncGenerator<LlmResponse, void> {
    const endpoint = await this.endpoint();
    const call = {
      model: this.name,
      body: toGeminiRequest(request, { vertex: endpoint.vertex }),
      headers: endpoint.headers,
      signal: options.signal,
    };
    const path = `${endpoint.modelsPath}/${encodeURIComponent(this.apiModelId)}`;
    if (!options.stream) {
      const { data } = await this.http.postJson<GeminiResponse>({
        ...call,
        path: `${path}:generateContent`,
      });
      yield { ...fromGeminiResponse(data), turnComplete: true };
      return;
    }
    const stream = await this.http.postStream({
      ...call,
      path: `${path}:streamGenerateContent`,
      query: { alt: 'sse' },
      headers: { ...call.headers, accept: 'text/event-stream' },
    });
    const aggregator = new StreamAggregator();
    let finished = false;
    for await (const { data } of jsonSseEvents(stream.body, {
      provider: 'gemini',
      model: this.name,
    })) {
      const chunk = data as GeminiResponse;
      if ((chunk as { error?: { message?: string; status?: string } }).error) {
        const error = (chunk as { error: { message?: string; status?: string } }).error;
        throw new ModelStreamError({
          provider: 'gemini',
          model: this.name,
          kind: 'provider-error',
          message: error.message ?? 'error event',
          providerErrorType: error.status,
        });
      }
      const response = fromGeminiResponse(chunk);
      aggregator.add(response);
      if (response.finishReason || chunk.promptFeedback?.blockReason) finished = true;
      const deltas = (response.content?.parts ?? []).filter(isTextDelta);
      if (deltas.length > 0) yield { content: { role: 'model', parts: deltas }, partial: true };
    }
    if (!finished) {
      throw new ModelStreamError({
        provider: 'gemini',
        model: this.name,
        kind: 'incomplete',
        message: 'the stream ended before a chunk with a finish reason',
      });
    }
    yield aggregator.final();
  }
}

function isTextDelta(part: Part): boolean {
  return part.text !== undefined && part.text !== '' && !part.functionCall;
}
