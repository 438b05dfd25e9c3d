import type { LlmRequest } from '@adk/core';

/** Serialise for a span attribute; a value JSON cannot hold becomes its string form. */
export function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * `value` as JSON of at most about `maxChars` characters: a larger one is replaced by a valid JSON
 * object holding its beginning (`adk_truncated`, `original_length`, `preview`), so that a reader
 * that parses the attribute (the ADK web UI does) still can.
 */
export function boundedJson(value: unknown, maxChars: number): string {
  const text = json(value);
  if (text.length <= maxChars) return text;
  return JSON.stringify({
    adk_truncated: true,
    original_length: text.length,
    preview: text.slice(0, Math.max(0, maxChars - 100)),
  });
}

/**
 * What a model span keeps of its request: everything but the history before the request's last
 * model turn. Each call's request repeats the whole conversation; keeping it in every span made
 * one session's trace grow with the square of its length. The span keeps what is new in this call
 * (the contents from the last model turn on: the user's message, or the tool responses answering
 * that turn) and says how many earlier contents it left out; the full history is the session's
 * events.
 */
export function requestForTrace(request: LlmRequest): {
  request: Record<string, unknown>;
  omitted: number;
} {
  const contents = Array.isArray(request.contents) ? request.contents : [];
  let start = contents.length - 1;
  while (start > 0 && contents[start]?.role !== 'model') start--;
  const from = Math.max(0, start);
  return { request: { ...request, contents: contents.slice(from) }, omitted: from };
}

/** Rough size of a span's attributes in memory (characters of its strings, plus overhead). */
export function attributesSize(attributes: Record<string, unknown>): number {
  let size = 0;
  for (const [key, value] of Object.entries(attributes)) {
    size += key.length + 16;
    if (typeof value === 'string') size += value.length;
    else if (Array.isArray(value)) size += 16 * value.length;
  }
  return size;
}
