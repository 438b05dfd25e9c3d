import type { ProviderDialect } from '../fake-server';
import { chunkString, textPieces, writeSse, type OutgoingEvent } from '../sse-writer';
import { withStructuredAnswer } from '../structured-answer';
import type { FakeReply } from '../types';

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const STOP: Record<NonNullable<FakeReply['finishReason']>, string> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  length: 'max_tokens',
  safety: 'refusal',
};

type Block = Record<string, unknown>;

/** The Anthropic Messages API (`POST /v1/messages`), JSON or SSE per the request's `stream`. */
export const anthropicDialect: ProviderDialect = {
  basePath: '/v1',
  route(path, _query, body) {
    if (path !== '/v1/messages') return undefined;
    const record = (body ?? {}) as { stream?: unknown; model?: unknown };
    return {
      stream: record.stream === true,
      model: typeof record.model === 'string' ? record.model : undefined,
    };
  },
  async respond(scripted, request, res, sequence) {
    const choice = (request.body as { tool_choice?: { type?: string; name?: string } }).tool_choice;
    const reply = withStructuredAnswer(scripted, choice?.type === 'tool' ? choice.name : undefined);
    const model = request.model ?? 'claude-sonnet-4-5';
    const usage = reply.usage ?? { inputTokens: 12, outputTokens: 8 };
    const serverToolUse = reply.webSearch
      ? { server_tool_use: { web_search_requests: reply.webSearch.queries.length } }
      : {};
    const stopReason =
      STOP[reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop')];
    const id = `msg_01Fake${String(sequence).padStart(4, '0')}`;
    const blocks = contentBlocks(reply, sequence);
    const headers = { 'request-id': `req_fake_${sequence}` };
    if (!request.stream) {
      res.writeHead(200, { 'content-type': 'application/json', ...headers });
      res.end(
        JSON.stringify({
          id,
          type: 'message',
          role: 'assistant',
          model,
          content: blocks,
          stop_reason: stopReason,
          stop_sequence: null,
          usage: {
            input_tokens: usage.inputTokens,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: usage.cachedTokens ?? 0,
            output_tokens: usage.outputTokens,
            ...serverToolUse,
          },
        }),
      );
      return;
    }
    const events: OutgoingEvent[] = [
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id,
            type: 'message',
            role: 'assistant',
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: {
              input_tokens: usage.inputTokens,
              cache_creation_input_tokens: 0,
              cache_read_input_tokens: usage.cachedTokens ?? 0,
              output_tokens: 1,
            },
          },
        },
      },
    ];
    blocks.forEach((block, index) => {
      events.push(...blockEvents(block, index, reply));
      if (index === 0) events.push({ event: 'ping', data: { type: 'ping' } });
    });
    events.push(
      {
        event: 'message_delta',
        data: {
          type: 'message_delta',
          delta: { stop_reason: stopReason, stop_sequence: null },
          usage: { output_tokens: usage.outputTokens, ...serverToolUse },
        },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    );
    await writeSse(res, events, reply.faults, { headers });
  },
  error(res, status, message, type, headers) {
    res.writeHead(status, {
      'content-type': 'application/json',
      'request-id': 'req_fake_error',
      ...headers,
    });
    res.end(
      JSON.stringify({
        type: 'error',
        error: { type: type ?? ERROR_TYPES[status] ?? 'api_error', message },
      }),
    );
  },
};

function contentBlocks(reply: FakeReply, sequence: number): Block[] {
  const blocks: Block[] = [];
  if (reply.redactedThinking)
    blocks.push({ type: 'redacted_thinking', data: reply.redactedThinking });
  else if (reply.thinking) {
    blocks.push({
      type: 'thinking',
      thinking: reply.thinking,
      signature: reply.thinkingSignature ?? 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds',
    });
  }
  blocks.push(...serverToolBlocks(reply, sequence));
  if (reply.text) {
    const text: Block = { type: 'text', text: reply.text };
    const citations = textCitations(reply);
    if (citations.length > 0) text.citations = citations;
    blocks.push(text);
  }
  (reply.toolCalls ?? []).forEach((call, index) => {
    blocks.push({
      type: 'tool_use',
      id: call.id ?? `toolu_01Fake${String(sequence).padStart(3, '0')}${index}`,
      name: call.name,
      input: call.rawArgs === undefined ? call.args : inputValue(call.rawArgs),
    });
  });
  return blocks;
}

function blockEvents(block: Block, index: number, reply: FakeReply): OutgoingEvent[] {
  const events: OutgoingEvent[] = [];
  const delta = (payload: Record<string, unknown>) =>
    events.push({
      event: 'content_block_delta',
      delta: payload.type === 'text_delta',
      data: { type: 'content_block_delta', index, delta: payload },
    });
  if (block.type === 'text') {
    events.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    });
    for (const piece of textPieces(String(block.text), reply.textChunks))
      delta({ type: 'text_delta', text: piece });
    for (const citation of (block.citations as Block[] | undefined) ?? [])
      delta({ type: 'citations_delta', citation });
  } else if (block.type === 'redacted_thinking' || String(block.type).endsWith('_tool_result')) {
    // Sent whole in content_block_start.
    events.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: block },
    });
  } else if (block.type === 'thinking') {
    events.push({
      event: 'content_block_start',
      data: {
        type: 'content_block_start',
        index,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      },
    });
    for (const piece of textPieces(String(block.thinking)))
      delta({ type: 'thinking_delta', thinking: piece });
    delta({ type: 'signature_delta', signature: block.signature });
  } else {
    events.push({
      event: 'content_block_start',
      data: {
        type: 'content_block_start',
        index,
        content_block: { type: block.type, id: block.id, name: block.name, input: {} },
      },
    });
    const json = typeof block.input === 'string' ? block.input : JSON.stringify(block.input);
    for (const piece of chunkString(json, reply.argsChunkSize ?? 7))
      delta({ type: 'input_json_delta', partial_json: piece });
  }
  events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  return events;
}

/**
 * A non-streamed `input` for raw arguments: the JSON value they spell (`null`, a string...), as a
 * server would send it; text that is not JSON stays text, as a proxy relaying it would.
 */
function inputValue(rawArgs: string): unknown {
  try {
    return JSON.parse(rawArgs) as unknown;
  } catch {
    return rawArgs;
  }
}

/**
 * Server tool blocks (`server_tool_use` then its result) of the reply's web search (one pair per
 * query, every source in each result) and code execution.
 */
function serverToolBlocks(reply: FakeReply, sequence: number): Block[] {
  const blocks: Block[] = [];
  const id = (n: number) => `srvtoolu_01Fake${String(sequence).padStart(3, '0')}${n}`;
  (reply.webSearch?.queries ?? []).forEach((query, n) => {
    blocks.push({ type: 'server_tool_use', id: id(n), name: 'web_search', input: { query } });
    blocks.push({
      type: 'web_search_tool_result',
      tool_use_id: id(n),
      content: reply.webSearch!.sources.map((source) => ({
        type: 'web_search_result',
        url: source.url,
        title: source.title,
        encrypted_content: Buffer.from(`page:${source.url}`).toString('base64'),
        page_age: null,
      })),
    });
  });
  const run = reply.codeExecution;
  if (run) {
    const n = blocks.length / 2;
    blocks.push({
      type: 'server_tool_use',
      id: id(n),
      name: 'code_execution',
      input: { code: run.code },
    });
    blocks.push({
      type: 'code_execution_tool_result',
      tool_use_id: id(n),
      content: {
        type: 'code_execution_result',
        stdout: run.ok === false ? '' : run.output,
        stderr: run.ok === false ? run.output : '',
        return_code: run.ok === false ? 1 : 0,
        content: [],
      },
    });
  }
  return blocks;
}

/** `web_search_result_location` citations of the answer text: one per source of the search. */
function textCitations(reply: FakeReply): Block[] {
  return (reply.webSearch?.sources ?? []).map((source) => ({
    type: 'web_search_result_location',
    url: source.url,
    title: source.title,
    encrypted_index: Buffer.from(`index:${source.url}`).toString('base64'),
    cited_text: (reply.text ?? '').slice(0, 150),
  }));
}
