/**
 * How each provider's prompt cache reads a request body, for tests and benchmarks of the
 * cache-friendly request layout (`LlmAgentOptions.staticInstruction`).
 */
import type { FakeReply, RecordedRequest } from './types';

type Json = Record<string, unknown>;

/**
 * A request body as the pieces a provider's prompt cache reads, in its order, with Anthropic's
 * `cache_control` markers left out (they place breakpoints; they are not part of the prompt).
 */
export type CacheOrder = (body: Json) => unknown[];

const turnsOf = (body: Json, key: string): unknown[] =>
  Array.isArray(body[key]) ? (body[key] as unknown[]) : [];

/** Gemini: system instruction, tools, then the contents. */
export const geminiCacheOrder: CacheOrder = (body) => [
  body.systemInstruction,
  body.tools,
  ...turnsOf(body, 'contents'),
];

/** Anthropic: tools, system, then the messages. */
export const anthropicCacheOrder: CacheOrder = (body) => [
  body.tools,
  body.system,
  ...turnsOf(body, 'messages'),
];

/** OpenAI Chat Completions: tools, then the messages (the system message first). */
export const openaiCacheOrder: CacheOrder = (body) => [body.tools, ...turnsOf(body, 'messages')];

/** One piece as the bytes compared: JSON without `cache_control` members. */
export function pieceText(piece: unknown): string {
  return JSON.stringify(piece ?? null, (key, value: unknown) =>
    key === 'cache_control' ? undefined : value,
  );
}

/** Whether the last two turns of a recorded request hold a tool result, in any wire's shape. */
export function answersToolCall(request: RecordedRequest): boolean {
  const body = request.body as Json;
  const turns = turnsOf(body, body.contents ? 'contents' : 'messages');
  return /functionResponse|tool_result|"role":"tool"/.test(JSON.stringify(turns.slice(-2)));
}

/** Calls `lookup` for a user message, answers once its result is in. */
export function lookupScript(request: RecordedRequest): FakeReply {
  return answersToolCall(request)
    ? { text: 'Breakfast is served from 7 to 10.' }
    : { toolCalls: [{ name: 'lookup', args: { topic: 'breakfast' } }] };
}
