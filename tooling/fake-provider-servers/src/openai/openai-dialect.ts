import { openaiEmbeddingRoute } from '../embeddings/openai-embedding-route';
import type { ProviderDialect } from '../fake-server';
import { chunkString, textPieces, writeSse, type OutgoingEvent } from '../sse-writer';
import { withStructuredAnswer } from '../structured-answer';
import type { FakeReply } from '../types';

const ERROR_TYPES: Record<number, [type: string, code: string | null]> = {
  400: ['invalid_request_error', null],
  401: ['invalid_request_error', 'invalid_api_key'],
  404: ['invalid_request_error', 'model_not_found'],
  429: ['requests', 'rate_limit_exceeded'],
  500: ['server_error', null],
  503: ['server_error', null],
};

const FINISH: Record<NonNullable<FakeReply['finishReason']>, string> = {
  stop: 'stop',
  tool_calls: 'tool_calls',
  length: 'length',
  safety: 'content_filter',
};

const FINGERPRINT = 'fp_f33640a400';

/**
 * The OpenAI Chat Completions API (`POST /v1/chat/completions`, or Azure OpenAI's paths), JSON or SSE chunks per the
 * request's `stream`, with usage in a last chunk only when `stream_options.include_usage` is set.
 * Thinking is sent as `reasoning_content`, as vLLM, DeepSeek and LiteLLM do. `POST /v1/embeddings`
 * answers with vectors (see `openaiEmbeddingRoute`).
 */
export const openaiDialect: ProviderDialect = {
  basePath: '/v1',
  embedding: openaiEmbeddingRoute,
  route(path, _query, body) {
    // OpenAI and compatible servers (/v1), Azure OpenAI (/openai/v1, /openai/deployments/<name>)
    const match = /^\/(?:v1|openai\/v1|openai\/deployments\/([^/]+))\/chat\/completions$/.exec(
      path,
    );
    if (!match) return undefined;
    const record = (body ?? {}) as { stream?: unknown; model?: unknown };
    return {
      stream: record.stream === true,
      model: typeof record.model === 'string' ? record.model : match[1],
    };
  },
  async respond(scripted, request, res, sequence) {
    const reply = withStructuredAnswer(scripted);
    const model = request.model ?? 'gpt-4o';
    const u = reply.usage ?? { inputTokens: 12, outputTokens: 8 };
    const usage = {
      prompt_tokens: u.inputTokens,
      completion_tokens: u.outputTokens,
      total_tokens: u.inputTokens + u.outputTokens,
      prompt_tokens_details: { cached_tokens: u.cachedTokens ?? 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: u.thoughtsTokens ?? 0, audio_tokens: 0 },
    };
    const finish = FINISH[reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop')];
    const id = `chatcmpl-Fake${String(sequence).padStart(6, '0')}`;
    const created = 1_760_000_000 + sequence;
    const calls = (reply.toolCalls ?? []).map((call, index) => ({
      id: call.id ?? `call_fake${sequence}x${index}`,
      type: 'function',
      function: { name: call.name, arguments: call.rawArgs ?? JSON.stringify(call.args) },
    }));
    const headers = { 'x-request-id': `req_fake${sequence}`, 'openai-processing-ms': '42' };
    if (!request.stream) {
      const message: Record<string, unknown> = {
        role: 'assistant',
        content: reply.text ?? null,
        refusal: null,
        annotations: annotations(reply),
      };
      if (reply.thinking) message.reasoning_content = reply.thinking;
      if (calls.length) message.tool_calls = calls;
      res.writeHead(200, { 'content-type': 'application/json', ...headers });
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
          usage,
          service_tier: 'default',
          system_fingerprint: FINGERPRINT,
        }),
      );
      return;
    }
    const body = request.body as { stream_options?: { include_usage?: boolean } };
    const includeUsage = body.stream_options?.include_usage === true;
    const envelope = {
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      service_tier: 'default',
      system_fingerprint: FINGERPRINT,
    };
    const chunk = (
      delta: Record<string, unknown>,
      finishReason: string | null = null,
    ): OutgoingEvent => ({
      data: {
        ...envelope,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
        ...(includeUsage ? { usage: null } : {}),
      },
    });
    const events: OutgoingEvent[] = [chunk({ role: 'assistant', content: '', refusal: null })];
    if (reply.thinking)
      for (const piece of textPieces(reply.thinking))
        events.push(chunk({ reasoning_content: piece }));
    if (reply.text) {
      for (const piece of textPieces(reply.text, reply.textChunks))
        events.push({ ...chunk({ content: piece }), delta: true });
    }
    if (reply.webSearch) events.push(chunk({ annotations: annotations(reply) }));
    const fragments = calls.map((call, index) => [
      chunk({
        tool_calls: [
          {
            index,
            id: call.id,
            type: 'function',
            function: { name: call.function.name, arguments: '' },
          },
        ],
      }),
      ...chunkString(call.function.arguments, reply.argsChunkSize ?? 7).map((piece) =>
        chunk({ tool_calls: [{ index, function: { arguments: piece } }] }),
      ),
    ]);
    if (reply.interleaveToolCalls) {
      const longest = Math.max(0, ...fragments.map((list) => list.length));
      for (let step = 0; step < longest; step++)
        for (const list of fragments) if (list[step]) events.push(list[step]!);
    } else {
      for (const list of fragments) events.push(...list);
    }
    events.push(chunk({}, finish));
    if (includeUsage) events.push({ data: { ...envelope, choices: [], usage } });
    events.push({ data: '[DONE]' });
    await writeSse(res, events, reply.faults, { headers });
  },
  error(res, status, message, type, headers) {
    const [defaultType, code] = ERROR_TYPES[status] ?? ['server_error', null];
    res.writeHead(status, {
      'content-type': 'application/json',
      'x-request-id': 'req_fake_error',
      ...headers,
    });
    res.end(
      JSON.stringify({ error: { message, type: type ?? defaultType, param: null, code } }, null, 2),
    );
  },
};

/**
 * The `url_citation` annotations of an answer from a search model (the reply's `webSearch`): one
 * per source, each spanning the whole answer text.
 */
function annotations(reply: FakeReply): Array<Record<string, unknown>> {
  const text = reply.text ?? '';
  return (reply.webSearch?.sources ?? []).map((source) => ({
    type: 'url_citation',
    url_citation: { start_index: 0, end_index: text.length, url: source.url, title: source.title },
  }));
}
