import type { FunctionCall } from '../content';
import type { LlmResponse } from '../models';

/** A text answer: a final response with one text part. */
export function fakeText(text: string, extra: Partial<LlmResponse> = {}): LlmResponse {
  return { content: { role: 'model', parts: [{ text }] }, turnComplete: true, ...extra };
}

/**
 * A response calling one or more tools. Calls without an id get `call-<n>` ids in order, so tests
 * can refer to them.
 *
 * @example
 * ```ts
 * fakeFunctionCalls({ name: 'get_weather', args: { city: 'Paris' } }, { name: 'get_time', args: {} })
 * ```
 */
export function fakeFunctionCalls(...calls: FunctionCall[]): LlmResponse {
  return {
    content: {
      role: 'model',
      parts: calls.map((call, index) => ({
        functionCall: {
          id: call.id ?? `call-${index + 1}`,
          name: call.name,
          args: call.args ?? {},
        },
      })),
    },
    turnComplete: true,
  };
}

/** A response calling one tool (id `call-1` unless given). */
export function fakeFunctionCall(
  name: string,
  args: Record<string, unknown> = {},
  id?: string,
): LlmResponse {
  return fakeFunctionCalls({ name, args, id });
}
