import type { LlmRequest, LlmResponse } from '@adk/core';
import { userContent } from '@adk/core';

export async function collect(iterable: AsyncIterable<LlmResponse>): Promise<LlmResponse[]> {
  const out: LlmResponse[] = [];
  for await (const response of iterable) out.push(response);
  return out;
}

/** Runs the iterable and returns what it yielded and what it threw. */
export async function collectUntilError(
  iterable: AsyncIterable<LlmResponse>,
): Promise<{ responses: LlmResponse[]; error: unknown }> {
  const responses: LlmResponse[] = [];
  try {
    for await (const response of iterable) responses.push(response);
  } catch (error) {
    return { responses, error };
  }
  return { responses, error: undefined };
}

export function ask(text: string, extra: Partial<LlmRequest> = {}): LlmRequest {
  return { model: 'test', contents: [userContent(text)], config: {}, ...extra };
}
