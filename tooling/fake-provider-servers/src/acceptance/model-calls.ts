import { userContent, type LlmRequest, type LlmResponse } from '@adk/core';

/**
 * A minimal request: one user message `text`, model name `test`, empty config, overridden by
 * `extra`.
 *
 * @example
 * ```ts
 * const responses = await collect(model.generate(ask('Hi'), { stream: true }));
 * ```
 */
export function ask(text: string, extra: Partial<LlmRequest> = {}): LlmRequest {
  return { model: 'test', contents: [userContent(text)], config: {}, ...extra };
}

/** Every response `iterable` yields, in order (rejects when it throws). */
export async function collect(iterable: AsyncIterable<LlmResponse>): Promise<LlmResponse[]> {
  const out: LlmResponse[] = [];
  for await (const response of iterable) out.push(response);
  return out;
}

/**
 * Runs `iterable` to its end and returns what it yielded and what it threw (`undefined` when it
 * ended normally), to assert on responses delivered before a failure.
 */
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
