import type { ServerResponse } from 'node:http';

import { geminiEmbeddingRoute } from '../embeddings/gemini-embedding-route';
import type { ProviderDialect } from '../fake-server';
import { textPieces, writeSse, type OutgoingEvent } from '../sse-writer';
import { withStructuredAnswer } from '../structured-answer';
import type { FakeReply, FakeUsage } from '../types';
import { geminiCodeExecutionParts, geminiGroundingMetadata } from './gemini-provider-tools';
import { streamedCallChunks, wantsStreamedArguments } from './streamed-call-chunks';

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

type GeminiPart = Record<string, unknown>;

const FINISH: Record<NonNullable<FakeReply['finishReason']>, string> = {
  stop: 'STOP',
  tool_calls: 'STOP',
  length: 'MAX_TOKENS',
  safety: 'SAFETY',
};

/**
 * The Gemini API (generativelanguage.googleapis.com/v1beta): `models/{model}:generateContent` and
 * `models/{model}:streamGenerateContent?alt=sse`, answers as `GenerateContentResponse` JSON; and
 * `:embedContent` / `:batchEmbedContents` (see `geminiEmbeddingRoute`).
 */
export const geminiDialect: ProviderDialect = {
  basePath: '/v1beta',
  embedding: geminiEmbeddingRoute,
  route(path, query) {
    // Gemini API (/v1beta/models/...) and Vertex AI (/v1/projects/p/locations/l/publishers/google/models/...)
    const match =
      /^(?:\/v1beta|\/v1(?:\/projects\/[^/]+\/locations\/[^/]+)?\/publishers\/google)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(
        path,
      );
    if (!match) return undefined;
    const stream = match[2] === 'streamGenerateContent';
    if (stream && query.alt !== 'sse') return undefined;
    return { stream, model: decodeURIComponent(match[1]!) };
  },
  async respond(scripted, request, res) {
    const reply = withStructuredAnswer(scripted);
    const model = request.model ?? 'gemini-2.5-flash';
    const usage = reply.usage ?? { inputTokens: 12, outputTokens: 8 };
    if (reply.promptBlockReason) {
      const body = {
        promptFeedback: {
          blockReason: reply.promptBlockReason,
          safetyRatings: [
            { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true },
          ],
        },
        usageMetadata: { promptTokenCount: usage.inputTokens, totalTokenCount: usage.inputTokens },
        modelVersion: model,
        responseId: 'fake-blocked',
      };
      if (request.stream)
        await writeSse(res, [{ data: body }], reply.faults, { lineEnding: '\r\n' });
      else json(res, 200, body);
      return;
    }
    if (reply.toolCalls?.some((call) => call.rawArgs !== undefined)) {
      // Gemini sends arguments as objects: an unparseable call is reported, not sent
      const body = {
        candidates: [
          {
            finishReason: 'MALFORMED_FUNCTION_CALL',
            finishMessage: `Malformed function call: ${reply.toolCalls[0]!.name}`,
            index: 0,
          },
        ],
        usageMetadata: usageMetadata(usage, true),
        modelVersion: model,
        responseId: 'fake-malformed',
      };
      if (request.stream)
        await writeSse(res, [{ data: body }], reply.faults, { lineEnding: '\r\n' });
      else json(res, 200, body);
      return;
    }
    const finishReason = FINISH[reply.finishReason ?? 'stop'];
    if (!request.stream) {
      json(res, 200, {
        candidates: [candidate(allParts(reply), finishReason, reply)],
        usageMetadata: usageMetadata(usage, true),
        modelVersion: model,
        responseId: `fake-${Math.random().toString(36).slice(2, 10)}`,
      });
      return;
    }
    const chunks: GeminiPart[][] = [];
    if (reply.thinking)
      chunks.push(...textPieces(reply.thinking).map((t) => [{ text: t, thought: true }]));
    chunks.push(...geminiCodeExecutionParts(reply).map((part) => [part]));
    if (reply.text)
      chunks.push(...textPieces(reply.text, reply.textChunks).map((t) => [{ text: t }]));
    // Gemini sends each function call whole (parallel calls together in one chunk), or, when the
    // request sets streamFunctionCallArguments (Gemini 3), each call's arguments in pieces.
    if (reply.toolCalls?.length && wantsStreamedArguments(request.body))
      chunks.push(...streamedCallChunks(reply));
    else if (reply.toolCalls?.length) chunks.push(toolCallParts(reply));
    if (chunks.length === 0) chunks.push([]);
    const responseId = `fake-${Math.random().toString(36).slice(2, 10)}`;
    const events: OutgoingEvent[] = chunks.map((parts, index) => {
      const last = index === chunks.length - 1;
      const cand: Record<string, unknown> = { content: { parts, role: 'model' }, index: 0 };
      if (parts.length === 0) delete cand.content;
      if (last) Object.assign(cand, { finishReason }, safetyRatings(reply), grounding(reply));
      return {
        delta: parts.some((part) => typeof part.text === 'string'),
        data: {
          candidates: [cand],
          usageMetadata: usageMetadata(usage, last),
          modelVersion: model,
          responseId,
        },
      };
    });
    if (reply.thinkingSignature && reply.thinking && !reply.toolCalls?.length) {
      const first = (events[0]!.data as { candidates: Array<{ content: { parts: GeminiPart[] } }> })
        .candidates[0]!;
      first.content.parts[0]!.thoughtSignature = reply.thinkingSignature;
    }
    await writeSse(res, events, reply.faults, { lineEnding: '\r\n' });
  },
  error(res, status, message, type, headers) {
    json(
      res,
      status,
      { error: { code: status, message, status: type ?? STATUS_NAMES[status] ?? 'UNKNOWN' } },
      headers,
    );
  },
};

function allParts(reply: FakeReply): GeminiPart[] {
  const parts: GeminiPart[] = [];
  if (reply.thinking) {
    const part: GeminiPart = { text: reply.thinking, thought: true };
    if (reply.thinkingSignature && !reply.toolCalls?.length)
      part.thoughtSignature = reply.thinkingSignature;
    parts.push(part);
  }
  parts.push(...geminiCodeExecutionParts(reply));
  if (reply.text) parts.push({ text: reply.text });
  if (reply.toolCalls?.length) parts.push(...toolCallParts(reply));
  return parts;
}

function toolCallParts(reply: FakeReply): GeminiPart[] {
  return (reply.toolCalls ?? []).map((call, index) => {
    const functionCall: Record<string, unknown> = { name: call.name, args: call.args };
    if (call.id) functionCall.id = call.id;
    const part: GeminiPart = { functionCall };
    // Gemini 2.5+/3 attach the thought signature to the first function call of a turn.
    if (index === 0 && reply.thinkingSignature) part.thoughtSignature = reply.thinkingSignature;
    return part;
  });
}

function candidate(
  parts: GeminiPart[],
  finishReason: string,
  reply: FakeReply,
): Record<string, unknown> {
  const cand: Record<string, unknown> = {
    finishReason,
    index: 0,
    ...safetyRatings(reply),
    ...grounding(reply),
  };
  if (parts.length > 0) cand.content = { parts, role: 'model' };
  return cand;
}

function grounding(reply: FakeReply): Record<string, unknown> {
  const metadata = geminiGroundingMetadata(reply);
  return metadata ? { groundingMetadata: metadata } : {};
}

function safetyRatings(reply: FakeReply): Record<string, unknown> {
  if (reply.finishReason !== 'safety') return {};
  return {
    safetyRatings: [
      { category: 'HARM_CATEGORY_HARASSMENT', probability: 'HIGH', blocked: true },
      { category: 'HARM_CATEGORY_HATE_SPEECH', probability: 'NEGLIGIBLE' },
    ],
  };
}

function usageMetadata(usage: FakeUsage, complete: boolean): Record<string, unknown> {
  if (!complete) return { promptTokenCount: usage.inputTokens, totalTokenCount: usage.inputTokens };
  const result: Record<string, unknown> = {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: usage.outputTokens,
    totalTokenCount: usage.inputTokens + usage.outputTokens + (usage.thoughtsTokens ?? 0),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.inputTokens }],
  };
  if (usage.thoughtsTokens) result.thoughtsTokenCount = usage.thoughtsTokens;
  if (usage.cachedTokens) result.cachedContentTokenCount = usage.cachedTokens;
  return result;
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
  res.end(JSON.stringify(body, null, 2));
}
